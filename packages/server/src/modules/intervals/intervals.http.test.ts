import { startOfDay } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { EventsClient } from '../../test/events-client.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** Intervals: CRUD, rules, line items joining the library, delete policy, rights, events (PRODUCT.md). */
describe('intervals', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let outsider: Client;
  let base: string;
  let units: { id: number; cnm: number; cneh: number }[];
  let driverId: number;

  beforeAll(async () => {
    t = await startTestServer();
    [manager, mechanic, viewer, outsider] = await Promise.all([
      t.login('manager'),
      t.login('mechanic'),
      t.login('viewer'),
      t.login('outsider'),
    ]);
    base = `/api/fleets/${t.demo.fleetId}/intervals`;
    units = (await manager.get(`/api/fleets/${t.demo.fleetId}/units`)).body.units;
    driverId = (await manager.get(`/api/fleets/${t.demo.fleetId}/drivers`)).body.drivers[0].id;
  });
  afterAll(() => t.close());

  const valid = (n: string, extra: object = {}) => ({ n, cnme: 1, cnmd: 10000, cnmo: 500, ...extra });
  const fields = (body: any) => body.details.map((d: { field: string }) => d.field).sort();
  const list = async () => (await viewer.get(base)).body.intervals as any[];
  const library = async () =>
    (await viewer.get(`/api/fleets/${t.demo.fleetId}/line_items`)).body.line_items as any[];

  it('creates an interval with line items and assignments whose baselines default to the counters and today', async () => {
    const unit = units[0]!;
    const res = await manager.post(base, {
      ...valid('  Oil service  '),
      description: 'Engine oil and filter',
      cnehe: 1,
      cnehd: 500,
      cneho: 20,
      de: 1,
      dd: 12,
      du: 'm',
      do: 14,
      li: [
        { n: 'Engine oil 5W-30', t: 2, q: 8.5, c: '12.345' },
        { n: 'Oil change labour', t: 1, q: 1, c: 60 },
      ],
      u: [
        { id: unit.id, t: 'u' },
        { id: driverId, t: 'd' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const today = startOfDay(180, now());
    expect(res.body).toMatchObject({
      n: 'Oil service',
      description: 'Engine oil and filter',
      cnme: 1,
      cnmd: 10000,
      cnmo: 500,
      cnehe: 1,
      cnehd: 500,
      cneho: 20,
      de: 1,
      dd: 12,
      du: 'm',
      do: 14,
      li: [
        { n: 'Engine oil 5W-30', t: 2, q: 8.5, c: 12.345 },
        { n: 'Oil change labour', t: 1, q: 1, c: 60 },
      ],
      u: [
        { id: unit.id, t: 'u', lcnm: unit.cnm, lceh: unit.cneh, ltm: today, cnt: 0 },
        { id: driverId, t: 'd', lcnm: 0, lceh: 0, ltm: today, cnt: 0 },
      ],
    });
    expect((await list()).find((i) => i.id === res.body.id)).toEqual(res.body);
    // Names typed here join the library (PRODUCT.md "Intervals").
    const lib = await library();
    expect(lib).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ n: 'Engine oil 5W-30', t: 2, c: 12.345 }),
        expect.objectContaining({ n: 'Oil change labour', t: 1, c: 60 }),
      ]),
    );
    // A name already there (any case) is not added again.
    await manager.post(base, { ...valid('Second oil'), li: [{ n: 'ENGINE OIL 5w-30', t: 2, q: 1, c: 1 }] });
    expect((await library()).filter((i) => i.n.toLowerCase() === 'engine oil 5w-30')).toHaveLength(1);
  });

  it('lists intervals sorted by name, naturally', async () => {
    for (const n of ['Check 10', 'check 9', 'Axle'])
      expect((await manager.post(base, valid(n))).status).toBe(200);
    const names = (await list()).map((i) => i.n).filter((n) => /^(check|axle)/i.test(n));
    expect(names).toEqual(['Axle', 'check 9', 'Check 10']);
  });

  it('validates names, description and thresholds, listing every bad field', async () => {
    const missing = await manager.post(base, { cnme: 1, cnmd: 1 });
    expect(missing.status).toBe(400);
    expect(fields(missing.body)).toEqual(['body.n']);
    const shape = await manager.post(base, {
      n: 'x'.repeat(129),
      description: 'd'.repeat(513),
      cnmd: 1.5,
      dd: 1000,
      du: 'h',
      cnmo: -1,
    });
    expect(shape.body.error).toBe(4);
    expect(fields(shape.body)).toEqual([
      'body.cnmd',
      'body.cnmo',
      'body.dd',
      'body.description',
      'body.du',
      'body.n',
    ]);
    expect((await manager.post(base, valid('y'.repeat(128), { description: 'd'.repeat(512) }))).status).toBe(
      200,
    );

    const none = await manager.post(base, { n: 'Nothing enabled', cnmd: 100 });
    expect(none.status).toBe(400);
    expect(fields(none.body)).toEqual(['body.cnme']);
    const rules = await manager.post(base, {
      n: 'Bad rules',
      cnme: 1,
      cnmd: 0,
      cnehe: 1,
      cnehd: 100,
      cneho: 100,
      de: 1,
      dd: 2,
      du: 'w',
      do: 14,
    });
    expect(fields(rules.body)).toEqual(['body.cneho', 'body.cnmd', 'body.do']);
    expect((await manager.post(base, { n: 'Two weeks', de: 1, dd: 2, du: 'w', do: 13 })).status).toBe(200);
    expect((await manager.post(base, { n: 'Big', cnme: 1, cnmd: 2147483647 })).status).toBe(200);
    expect((await manager.post(base, { n: 'Too big', cnme: 1, cnmd: 2147483648 })).status).toBe(400);

    const lines = await manager.post(base, {
      ...valid('Bad lines'),
      li: [
        { n: '', t: 2, q: 1, c: 1 },
        { n: 'Fuel here', t: 4, q: 0, c: 1.0001 },
      ],
    });
    expect(fields(lines.body)).toEqual(['body.li.0.n', 'body.li.1.c', 'body.li.1.q', 'body.li.1.t']);
    const many = Array.from({ length: 101 }, (_, i) => ({ n: `Line ${i}`, t: 1, q: 1, c: 1 }));
    expect((await manager.post(base, { ...valid('Many lines'), li: many })).status).toBe(400);
    expect((await list()).some((i) => /^(Bad|Many|Nothing|Too big)/.test(i.n))).toBe(false);
  });

  it('keeps names unique in the fleet, case-insensitively (error 10)', async () => {
    const first = await manager.post(base, valid('Brake check'));
    const dup = await manager.post(base, valid('BRAKE CHECK'));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 10, details: [{ field: 'body.n' }] });
    const other = await manager.post(base, valid('Tyre check'));
    const renamed = await manager.put(`${base}/${other.body.id}`, { n: 'brake Check' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toBe(10);
    // Renaming to its own name in another case is fine.
    expect((await manager.put(`${base}/${first.body.id}`, { n: 'Brake Check' })).body.n).toBe('Brake Check');
  });

  it('updates thresholds, replaces line items, and checks the merged rules', async () => {
    const created = (
      await manager.post(base, { ...valid('Gearbox'), li: [{ n: 'Gear oil', t: 2, q: 2, c: 9 }] })
    ).body;
    const res = await manager.put(`${base}/${created.id}`, {
      cnmd: 20000,
      description: 'New text',
      li: [{ n: 'Gearbox labour', t: 1, q: 3, c: 50 }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ n: 'Gearbox', cnmd: 20000, cnmo: 500, description: 'New text' });
    expect(res.body.li).toEqual([{ n: 'Gearbox labour', t: 1, q: 3, c: 50 }]);
    const bad = await manager.put(`${base}/${created.id}`, { cnmo: 20000 });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual(['body.cnmo']);
    const off = await manager.put(`${base}/${created.id}`, { cnme: 0 });
    expect(fields(off.body)).toEqual(['body.cnme']);
    const assigned = await manager.put(`${base}/${created.id}`, {
      u: [{ id: units[2]!.id, t: 'u', cnt: 4 }],
    });
    expect(assigned.body.u).toEqual([
      expect.objectContaining({ id: units[2]!.id, lcnm: units[2]!.cnm, cnt: 4 }),
    ]);
    const foreign = await manager.put(`${base}/${created.id}`, { u: [{ id: 999999, t: 't' }] });
    expect(fields(foreign.body)).toEqual(['body.u.0.id']);
    expect((await manager.put(`${base}/999999`, { cnmd: 1 })).status).toBe(404);
  });

  it('deletes an interval with its assignments; Due services go, in-progress and archived stay', async () => {
    const unit = units[1]!;
    const iv = (await manager.post(base, { ...valid('To delete'), u: [{ id: unit.id, t: 'u' }] })).body;
    const db = t.server.ctx.db.kysely;
    const assignment = await db
      .selectFrom('assignments')
      .select('id')
      .where('interval_id', '=', iv.id)
      .executeTakeFirstOrThrow();
    const service = (f: number, assignmentId: number | null) => ({
      fleet_id: t.demo.fleetId,
      object_type: 'u',
      object_id: unit.id,
      interval_id: iv.id,
      assignment_id: assignmentId,
      f,
      name: `svc ${f}`,
      description: '',
      cf: '[]',
      created_at: 0,
      updated_at: 0,
    });
    const ids = [];
    for (const [f, a] of [
      [1, assignment.id],
      [2, null],
      [8, null],
    ] as const)
      ids.push(
        (await db.insertInto('services').values(service(f, a)).returning('id').executeTakeFirstOrThrow()).id,
      );
    expect((await manager.delete(`${base}/${iv.id}`)).body).toEqual({ error: 0 });
    expect((await list()).some((i) => i.id === iv.id)).toBe(false);
    const left = await db
      .selectFrom('services')
      .select(['id', 'f', 'interval_id'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(left).toEqual([
      { id: ids[1], f: 2, interval_id: null },
      { id: ids[2], f: 8, interval_id: null },
    ]);
    expect(
      await db.selectFrom('assignments').select('id').where('interval_id', '=', iv.id).execute(),
    ).toEqual([]);
    expect((await manager.delete(`${base}/${iv.id}`)).status).toBe(404);
  });

  it('lets viewers and mechanics read but only interval managers write; outsiders see nothing', async () => {
    const iv = (await manager.post(base, valid('Guarded interval'))).body;
    expect((await mechanic.get(base)).status).toBe(200);
    expect((await viewer.get(`${base}/${iv.id}/units`)).status).toBe(200);
    for (const client of [viewer, mechanic]) {
      for (const res of [
        await client.post(base, valid('Not mine')),
        await client.put(`${base}/${iv.id}`, { cnmd: 1 }),
        await client.delete(`${base}/${iv.id}`),
        await client.put(`${base}/${iv.id}/units`, { units: [] }),
        await client.post(`${base}/batch`, { intervals: [] }),
      ])
        expect(res.body).toEqual({ error: 7, reason: 'Access denied' });
    }
    for (const res of [
      await outsider.get(base),
      await outsider.get(`${base}/${iv.id}/units`),
      await outsider.put(`${base}/${iv.id}`, { cnmd: 1 }),
      await outsider.delete(`${base}/${iv.id}`),
    ])
      expect(res.body).toEqual({ error: 7, reason: 'Access denied' });
    const own = `/api/fleets/${t.demo.otherFleetId}/intervals/${iv.id}`;
    expect((await outsider.put(own, { cnmd: 1 })).status).toBe(404);
    expect((await outsider.delete(own)).status).toBe(404);
    expect((await outsider.get(`${own}/units`)).status).toBe(404);
    expect((await list()).find((i) => i.id === iv.id)).toMatchObject({ cnmd: 10000 });
  });

  it('publishes interval and lineitem events to a manager', async () => {
    const events = await EventsClient.connect(t.url, manager.ssid);
    try {
      const iv = (
        await manager.post(base, { ...valid('Evented'), li: [{ n: 'Evented part', t: 2, q: 1, c: 2 }] })
      ).body;
      const c = await events.next((e) => e.s === 'interval' && e.t === 'c' && (e.d as any).id === iv.id);
      expect(c).toMatchObject({ fid: t.demo.fleetId, d: { n: 'Evented', li: [{ n: 'Evented part' }] } });
      await events.next((e) => e.s === 'lineitem' && e.t === 'c' && (e.d as any).n === 'Evented part');
      await manager.put(`${base}/${iv.id}`, { cnmd: 12345 });
      await events.next((e) => e.s === 'interval' && e.t === 'u' && (e.d as any).cnmd === 12345);
      await manager.delete(`${base}/${iv.id}`);
      await events.next((e) => e.s === 'interval' && e.t === 'd' && (e.d as any).id === iv.id);
    } finally {
      events.close();
    }
  });
});
