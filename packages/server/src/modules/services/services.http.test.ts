import { localDate } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../../context.js';
import { EventsClient } from '../../test/events-client.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/** Services: creation per status, transitions, baselines, `ins`, costs, events (spec §4, PRODUCT.md). */
describe('services', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let outsider: Client;
  let events: EventsClient;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
    events = await EventsClient.connect(t.url, viewer.ssid);
  });
  afterAll(async () => {
    events?.close();
    await t?.close();
  });

  const fields = (body: any) => (body.details as { field: string }[]).map((d) => d.field).sort();
  const create = (body: object, client: Client = manager) =>
    client.post(fx.base, { n: 'Service', t: 'u', ...body });

  describe('create per status, with the fleet "today"', () => {
    it('Due: planned date today or later, f = upcoming | manually; notify days only for Due', async () => {
      const uid = await fx.unit();
      const due = await create({ uid, f: 1, notify_days: 3 });
      expect(due.status, JSON.stringify(due.body)).toBe(200);
      expect(due.body).toMatchObject({ f: 129, limit_date: fx.today(), notify_days: 3, uid, t: 'u', ins: 0 });
      const later = await create({ uid, f: 1, limit_date: fx.iso(10) });
      expect(later.body.limit_date).toBe(fx.day(10));
      const past = await create({ uid, f: 1, limit_date: fx.iso(-1) });
      expect(past.status).toBe(400);
      expect(past.body.error).toBe(4);
      expect(fields(past.body)).toEqual(['body.limit_date']);
      const notify = await create({ uid, f: 2, notify_days: 3 });
      expect(fields(notify.body)).toEqual(['body.notify_days']);
    });

    it('In progress: start today or earlier; Closed: start and end today or earlier, end not before start', async () => {
      const uid = await fx.unit(7000, 410.5);
      expect(fields((await create({ uid, f: 2, start_date: fx.iso(1) })).body)).toEqual(['body.start_date']);
      const started = await create({ uid, f: 2, start_date: fx.day(-2) });
      expect(started.body).toMatchObject({ f: 2, start_date: fx.day(-2) });
      const bad = await create({ uid, f: 8, start_date: fx.iso(-1), end_date: fx.iso(-2) });
      expect(fields(bad.body)).toEqual(['body.end_date']);
      const future = await create({ uid, f: 8, start_date: fx.iso(1), end_date: fx.iso(1) });
      expect(fields(future.body)).toEqual(['body.end_date', 'body.start_date']);
      const closed = await create({ uid, f: 8, start_date: fx.iso(-3), end_date: fx.iso(-1) });
      // Counters default to the object's current ones when closing (spec §3, PRODUCT.md).
      expect(closed.body).toMatchObject({
        f: 8,
        start_date: fx.day(-3),
        end_date: fx.day(-1),
        mileage: 7000,
        engine_hours: 410.5,
      });
    });

    it('takes "today" in the fleet zone, not in UTC', async () => {
      const uid = await fx.unit();
      const utcHour = new Date().getUTCHours();
      // An offset whose local date differs from the UTC date right now: −12 h early in the UTC day, +14 h later.
      const offset = utcHour < 12 ? -720 : 840;
      await fx.db
        .updateTable('fleets')
        .set({ tz: offset & 0xffff })
        .where('id', '=', fx.fleetId)
        .execute();
      try {
        const local = localDate(offset & 0xffff, now());
        expect(local).not.toBe(new Date().toISOString().slice(0, 10));
        const res =
          offset < 0
            ? await create({ uid, f: 1, limit_date: local })
            : await create({ uid, f: 2, start_date: local });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const utcToday = new Date().toISOString().slice(0, 10);
        const refused =
          offset < 0
            ? await create({ uid, f: 2, start_date: utcToday })
            : await create({ uid, f: 1, limit_date: utcToday });
        expect(refused.status).toBe(400);
      } finally {
        await fx.db.updateTable('fleets').set({ tz: fx.tz }).where('id', '=', fx.fleetId).execute();
      }
    });

    it('lists every invalid field at once and refuses unknown objects and other fleets', async () => {
      const res = await manager.post(fx.base, {
        t: 'x',
        uid: 'a',
        n: '',
        f: 4,
        li: [{ n: 'a', t: 3, q: 0, c: -1 }],
      });
      expect(res.status).toBe(400);
      expect(fields(res.body)).toEqual(
        expect.arrayContaining([
          'body.t',
          'body.uid',
          'body.n',
          'body.f',
          'body.li.0.t',
          'body.li.0.q',
          'body.li.0.c',
        ]),
      );
      const other = await t.server.ctx.db.kysely
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', t.demo.otherFleetId)
        .executeTakeFirstOrThrow();
      const foreign = await create({ uid: other.id, f: 1 });
      expect(fields(foreign.body)).toEqual(['body.uid']);
      expect((await outsider.post(fx.base, { n: 'x', t: 'u', uid: other.id, f: 1 })).status).toBe(403);
      expect((await outsider.get(fx.base)).status).toBe(403);
    });
  });

  describe('costs', () => {
    it('sums line items exactly and keeps a manual total only without line items', async () => {
      const uid = await fx.unit();
      const res = await create({
        uid,
        f: 1,
        li: [
          { n: 'Brake pad (svc test)', t: 2, q: 3, c: 19.99 },
          { n: 'Fitting (svc test)', t: 1, q: '0.5', c: '0.1' },
        ],
      });
      expect(res.body.total_cost).toBe(60.02);
      expect(res.body.li).toEqual([
        { n: 'Brake pad (svc test)', t: 2, q: 3, c: 19.99 },
        { n: 'Fitting (svc test)', t: 1, q: 0.5, c: 0.1 },
      ]);
      const lib = await t.server.ctx.db.kysely
        .selectFrom('line_items')
        .select(['name', 'kind', 'cost'])
        .where('fleet_id', '=', fx.fleetId)
        .where('name', 'like', '%(svc test)')
        .orderBy('name')
        .execute();
      expect(lib).toEqual([
        { name: 'Brake pad (svc test)', kind: 2, cost: 19990 },
        { name: 'Fitting (svc test)', kind: 1, cost: 100 },
      ]);
      const only = await manager.put(`${fx.base}/${res.body.id}`, {
        li: [{ n: 'Brake pad (svc test)', t: 2, q: 3, c: 19.99 }],
      });
      expect(only.body.total_cost).toBe(59.97);
      const both = await manager.put(`${fx.base}/${res.body.id}`, { manual_cost: 10 });
      expect(fields(both.body)).toEqual(['body.manual_cost']);
      const manual = await manager.put(`${fx.base}/${res.body.id}`, { li: [], manual_cost: '120.5' });
      expect(manual.body).toMatchObject({ total_cost: 120.5, manual_cost: 120.5, li: [] });
      const created = await create({ uid, f: 1, manual_cost: 0.1, li: [{ n: 'X', t: 1, q: 1, c: 1 }] });
      expect(fields(created.body)).toEqual(['body.manual_cost']);
    });
  });

  describe('status transitions', () => {
    it('Due → In progress (confirm) → Due → Closed; closed is frozen', async () => {
      const uid = await fx.unit();
      const { body: s } = await create({ uid, f: 1 });
      const confirmed = await mechanic.put(`${fx.base}/${s.id}/confirm`);
      expect(confirmed.body).toMatchObject({ f: 2, start_date: fx.today() });
      const again = await manager.put(`${fx.base}/${s.id}/confirm`);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe(10);
      const back = await manager.put(`${fx.base}/${s.id}`, { f: 1, limit_date: fx.iso(2) });
      expect(back.body).toMatchObject({ f: 129, limit_date: fx.day(2) });
      const closed = await manager.put(`${fx.base}/${s.id}`, { f: 8 });
      expect(closed.body).toMatchObject({
        f: 8,
        end_date: fx.today(),
        start_date: fx.today(),
        mileage: 5000,
      });
      for (const [method, url, body] of [
        ['PUT', `${fx.base}/${s.id}`, { n: 'renamed' }],
        ['PUT', `${fx.base}/${s.id}`, { f: 2 }],
        ['PUT', `${fx.base}/${s.id}/confirm`, {}],
        ['POST', `${fx.base}/${s.id}/status`, { f: 16 }],
      ] as const) {
        const res = await manager.request(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(409);
        expect(res.body.error).toBe(10);
      }
      // The editor can still read it by id; the active list does not hold it.
      expect((await viewer.get(`${fx.base}/${s.id}`)).body).toMatchObject({ id: s.id, f: 8 });
      const open = (await viewer.get(`${fx.base}?object_type=u&object_id=${uid}`)).body.services;
      expect(open.map((x: { id: number }) => x.id)).not.toContain(s.id);
    });

    it('rejects from Due and from In progress only; the body must say f = 16', async () => {
      const uid = await fx.unit();
      const { body: due } = await create({ uid, f: 1 });
      const { body: busy } = await create({ uid, f: 2 });
      expect((await manager.post(`${fx.base}/${due.id}/status`, { f: 8 })).status).toBe(400);
      expect((await manager.post(`${fx.base}/${due.id}/status`, { f: 16 })).body).toMatchObject({
        f: 16,
        end_date: fx.today(),
      });
      expect((await manager.post(`${fx.base}/${busy.id}/status`, { f: 16 })).body.f).toBe(16);
      const rejected = await manager.post(`${fx.base}/${busy.id}/status`, { f: 16 });
      expect(rejected.status).toBe(409);
      expect((await viewer.post(`${fx.base}/${due.id}/status`, { f: 16 })).status).toBe(403);
    });

    it('clears overdue flags when a Due service leaves Due', async () => {
      const uid = await fx.unit();
      const { body: s } = await create({ uid, f: 1 });
      await fx.db
        .updateTable('services')
        .set({ f: 1 | 4 | 256 | 128 })
        .where('id', '=', s.id)
        .execute();
      expect((await manager.put(`${fx.base}/${s.id}`, { n: 'still due' })).body.f).toBe(1 | 4 | 256 | 128);
      expect((await manager.put(`${fx.base}/${s.id}/confirm`)).body.f).toBe(2);
    });

    it('object type, object and interval cannot change', async () => {
      const uid = await fx.unit();
      const { body: s } = await create({ uid, f: 1 });
      const res = await manager.put(`${fx.base}/${s.id}`, { t: 'd', uid: uid + 1000 });
      expect(fields(res.body)).toEqual(['body.t', 'body.uid']);
      expect((await manager.put(`${fx.base}/${s.id}`, { t: 'u', uid, n: 'same' })).body.n).toBe('same');
    });
  });

  describe('baselines', () => {
    it('closing resets the assignment to the service counters and end date and counts an execution', async () => {
      const uid = await fx.unit(20000, 900);
      const { ivid, aid } = await fx.assignment(uid);
      const { body: s } = await create({ uid, f: 1, ivid });
      expect(s).toMatchObject({ ivid, eid: aid });
      // One open service per assignment.
      const second = await create({ uid, f: 2, ivid });
      expect(second.status).toBe(409);
      expect(second.body.error).toBe(10);
      await manager.put(`${fx.base}/${s.id}`, {
        f: 8,
        end_date: fx.iso(-1),
        mileage: 19950,
        engine_hours: 899.5,
      });
      expect(await fx.assignmentRow(aid)).toMatchObject({
        lcnm: 19950,
        lceh: 899.5,
        ltm: fx.day(-1),
        cnt: 1,
      });
      // A closed service created by hand for the interval counts as an execution too.
      await create({ uid, f: 8, ivid, end_date: fx.iso(0) });
      expect(await fx.assignmentRow(aid)).toMatchObject({ lcnm: 20000, lceh: 900, ltm: fx.today(), cnt: 2 });
    });

    it('rejecting resets the baseline to the moment and the current counters; executions stay', async () => {
      const uid = await fx.unit(30000, 1200);
      const { ivid, aid } = await fx.assignment(uid, { lcnm: 100, lceh: 10, ltm: now() - 90 * DAY, cnt: 4 });
      const { body: s } = await create({ uid, f: 2, ivid });
      const before = now();
      await manager.post(`${fx.base}/${s.id}/status`, { f: 16 });
      const a = await fx.assignmentRow(aid);
      expect(a).toMatchObject({ lcnm: 30000, lceh: 1200, cnt: 4 });
      expect(a.ltm).toBeGreaterThanOrEqual(before);
      expect(a.ltm).toBeLessThanOrEqual(now());
    });
  });

  describe('concurrency', () => {
    it('opens one service per assignment even when requests race', async () => {
      const uid = await fx.unit();
      const { ivid } = await fx.assignment(uid);
      const replies = await Promise.all(Array.from({ length: 6 }, () => create({ uid, f: 1, ivid })));
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      expect(replies.filter((r) => r.status === 409).every((r) => r.body.error === 10)).toBe(true);
    });

    it('keeps ins exact when one service closes while another starts', async () => {
      const uid = await fx.unit();
      for (let round = 0; round < 3; round++) {
        const { body: a } = await create({ uid, f: 2 });
        const { body: b } = await create({ uid, f: 1 });
        await Promise.all([
          manager.put(`${fx.base}/${a.id}`, { f: 8 }),
          manager.put(`${fx.base}/${b.id}/confirm`),
        ]);
        expect((await fx.unitRow(uid)).ins).toBe(1);
        await manager.put(`${fx.base}/${b.id}`, { f: 8 });
        expect((await fx.unitRow(uid)).ins).toBe(0);
      }
    });
  });

  describe('in-progress marker', () => {
    it('is 1 while an In progress service exists, exact through every change, with unit events', async () => {
      const uid = await fx.unit();
      const ins = async () => (await fx.unitRow(uid)).ins;
      const flipTo = (value: number) =>
        events.next(
          (e) => e.s === 'avl_unit' && e.t === 'u' && (e.d as any).id === uid && (e.d as any).ins === value,
        );
      const { body: a } = await create({ uid, f: 1 });
      expect(await ins()).toBe(0);
      await manager.put(`${fx.base}/${a.id}/confirm`);
      expect(await ins()).toBe(1);
      await flipTo(1);
      const { body: b } = await create({ uid, f: 2 });
      expect(b.ins).toBe(1);
      await manager.put(`${fx.base}/${a.id}`, { f: 8 });
      expect(await ins()).toBe(1);
      await manager.post(`${fx.base}/${b.id}/status`, { f: 16 });
      expect(await ins()).toBe(0);
      await flipTo(0);
      const { body: c } = await create({ uid, f: 2 });
      expect(c.ins).toBe(1);
      await manager.put(`${fx.base}/${c.id}`, { f: 1 });
      expect(await ins()).toBe(0);
    });
  });

  describe('drivers and trailers', () => {
    it('carry services and the in-progress marker too; closing them takes no counters', async () => {
      const driver = await fx.db
        .selectFrom('drivers')
        .select('id')
        .where('fleet_id', '=', fx.fleetId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const { body: s } = await create({ t: 'd', uid: driver.id, f: 2 });
      expect(s).toMatchObject({ t: 'd', uid: driver.id, ins: 1, current_mileage: null });
      await events.next((e) => e.s === 'driver' && (e.d as any).id === driver.id && (e.d as any).ins === 1);
      const closed = await manager.put(`${fx.base}/${s.id}`, { f: 8 });
      expect(closed.body).toMatchObject({ f: 8, mileage: null, engine_hours: null, ins: 0 });
      await events.next((e) => e.s === 'driver' && (e.d as any).id === driver.id && (e.d as any).ins === 0);
    });
  });

  describe('reads and events', () => {
    it('lists open services with line items and owner counters; other fleets stay invisible', async () => {
      const uid = await fx.unit(1234.5, 56);
      const { body: s } = await create({ uid, f: 1, li: [{ n: 'Wiper', t: 2, q: 2, c: 7.5 }] });
      await create({ uid, f: 8 });
      const list = (await viewer.get(`${fx.base}?object_type=u&object_id=${uid}`)).body.services;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        id: s.id,
        current_mileage: 1234.5,
        current_engine_hours: 56,
        total_cost: 15,
        ats: 0,
        li: [{ n: 'Wiper', t: 2, q: 2, c: 7.5 }],
      });
      const all = (await mechanic.get(fx.base)).body.services as { f: number }[];
      expect(all.every((x) => (x.f & 24) === 0)).toBe(true);
      expect((await outsider.get(`${fx.base}/${s.id}`)).status).toBe(403);
      const otherBase = `/api/fleets/${t.demo.otherFleetId}/services`;
      expect((await outsider.get(`${otherBase}/${s.id}`)).status).toBe(404);
      expect((await outsider.put(`${otherBase}/${s.id}`, { n: 'x' })).status).toBe(404);
      expect((await outsider.get(otherBase)).body.services).toEqual([]);
      expect((await viewer.post(fx.base, { n: 'x', t: 'u', uid, f: 1 })).status).toBe(403);
      expect((await manager.get(`${fx.base}/999999`)).status).toBe(404);
    });

    it('publishes c and u service events; a closing update carries f', async () => {
      const uid = await fx.unit();
      const { body: s } = await create({ uid, f: 1 });
      await events.next((e) => e.s === 'service' && e.t === 'c' && (e.d as any).id === s.id);
      await manager.put(`${fx.base}/${s.id}`, { f: 8 });
      const closed = await events.next((e) => e.s === 'service' && e.t === 'u' && (e.d as any).id === s.id);
      expect(closed).toMatchObject({ fid: fx.fleetId, d: { f: 8 } });
    });
  });
});
