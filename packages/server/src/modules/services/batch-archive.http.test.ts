import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../../test/events-client.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/** Batch actions, the service import and the archive (spec §5, §7 "Services"; PRODUCT.md "Services"). */
describe('service batches and archive', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
  });
  afterAll(() => t.close());

  const countOf = async (uid: number) =>
    Number(
      (
        await fx.db
          .selectFrom('services')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('object_id', '=', uid)
          .where('object_type', '=', 'u')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const create = async (uid: number, f: number, extra: object = {}) => {
    const res = await manager.post(fx.base, { n: 'S', t: 'u', uid, f, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  };

  describe('POST /services/batch (import)', () => {
    it('checks every row and stores nothing when one fails (spec §5 "Import: services")', async () => {
      const uid = await fx.unit();
      const other = await fx.db
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', t.demo.otherFleetId)
        .executeTakeFirstOrThrow();
      const ok = { n: 'Imported', t: 'u', uid, f: 8, start_date: fx.iso(-5), end_date: fx.iso(-4) };
      const bad = await manager.post(`${fx.base}/batch`, {
        services: [
          ok,
          { ...ok, uid: other.id },
          { ...ok, end_date: fx.iso(-6) },
          { ...ok, start_date: fx.iso(1), end_date: fx.iso(1) },
          { ...ok, total_cost: '12,5' },
          { ...ok, mileage: 10.5 },
        ],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe(4);
      const fieldsBy = bad.body.details.map((d: any) => d.field).sort();
      expect(fieldsBy).toEqual([
        'body.services.1.uid',
        'body.services.2.end_date',
        'body.services.3.end_date',
        'body.services.3.start_date',
        'body.services.4.total_cost',
        'body.services.5.mileage',
      ]);
      expect(await countOf(uid)).toBe(0);
    });

    it('imports all rows with integer or dotted totals and publishes them', async () => {
      const uid = await fx.unit();
      const events = await EventsClient.connect(t.url, viewer.ssid);
      const ok = {
        n: 'Imported',
        t: 'u',
        uid,
        f: 8,
        start_date: fx.iso(-5),
        end_date: fx.iso(-4),
        mileage: 4000,
      };
      const res = await manager.post(`${fx.base}/batch`, {
        services: [
          { ...ok, total_cost: '12.5' },
          { ...ok, total_cost: 7 },
          { ...ok, f: 1, start_date: undefined, end_date: undefined },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.services.map((s: any) => [s.f, s.total_cost, s.mileage])).toEqual([
        [8, 12.5, 4000],
        [8, 7, 4000],
        [129, 0, 4000],
      ]);
      await events.next(
        (e) => e.s === 'service' && e.t === 'c' && (e.d as any).id === res.body.services[2].id,
      );
      events.close();
      expect((await viewer.post(`${fx.base}/batch`, { services: [ok] })).status).toBe(403);
    });
  });

  describe('PUT /services/batch', () => {
    it('updates many at once, or none when a row fails', async () => {
      const uid = await fx.unit();
      const [a, b] = [await create(uid, 1), await create(uid, 2)];
      const bad = await manager.put(`${fx.base}/batch`, {
        services: [
          { id: a, n: 'A2' },
          { id: b, f: 1, limit_date: fx.iso(-3) },
        ],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual([
        expect.objectContaining({ row: 1, field: 'body.services.1.limit_date' }),
      ]);
      expect((await manager.get(`${fx.base}/${a}`)).body.n).toBe('S');
      const res = await manager.put(`${fx.base}/batch`, {
        services: [
          { id: a, n: 'A2' },
          { id: b, description: 'B2' },
        ],
      });
      expect(res.body.services.map((s: any) => [s.n, s.description])).toEqual([
        ['A2', ''],
        ['S', 'B2'],
      ]);
      const unknown = await manager.put(`${fx.base}/batch`, { services: [{ id: 99999999, n: 'x' }] });
      expect(unknown.status).toBe(409);
    });
  });

  describe('POST /services/status/batch', () => {
    it('refuses what is not an array of numbers (spec §5 rejectServices)', async () => {
      const notArray = await manager.post(`${fx.base}/status/batch`, { f: 16, services: '1,2' });
      expect(notArray.status).toBe(400);
      expect(notArray.body).toMatchObject({ error: 4, reason: 'items should be array' });
      const notNumbers = await manager.post(`${fx.base}/status/batch`, { f: 16, services: [1, '2'] });
      expect(notNumbers.body).toMatchObject({ error: 4, reason: 'items should be array [number...]' });
      expect((await manager.post(`${fx.base}/status/batch`, { f: 4, services: [1] })).status).toBe(400);
    });

    it('closes with one end date and each object’s current counters; ins and baselines follow', async () => {
      const [u1, u2] = [await fx.unit(111, 11), await fx.unit(222, 22)];
      const { ivid, aid } = await fx.assignment(u1);
      const s1 = await create(u1, 2, { ivid, start_date: fx.iso(-3) });
      const s2 = await create(u2, 1);
      expect((await fx.unitRow(u1)).ins).toBe(1);
      const res = await mechanic.post(`${fx.base}/status/batch`, {
        f: 8,
        services: [s1, s2],
        end_date: fx.iso(-1),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.services.map((s: any) => [s.id, s.f, s.end_date, s.mileage, s.engine_hours])).toEqual([
        [s1, 8, fx.day(-1), 111, 11],
        [s2, 8, fx.day(-1), 222, 22],
      ]);
      expect((await fx.unitRow(u1)).ins).toBe(0);
      expect(await fx.assignmentRow(aid)).toMatchObject({ lcnm: 111, lceh: 11, ltm: fx.day(-1), cnt: 1 });
      const future = await manager.post(`${fx.base}/status/batch`, {
        f: 8,
        services: [s1],
        end_date: fx.iso(2),
      });
      expect(future.status).toBe(400);
    });

    it('is atomic: one service that cannot take the status changes nothing (409 with details)', async () => {
      const uid = await fx.unit();
      const [due, done] = [await create(uid, 1), await create(uid, 8)];
      const res = await manager.post(`${fx.base}/status/batch`, { f: 2, services: [due, done] });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(10);
      expect(res.body.details).toEqual([{ id: done, reason: expect.any(String) }]);
      expect((await manager.get(`${fx.base}/${due}`)).body.f).toBe(129);
      expect((await fx.unitRow(uid)).ins).toBe(0);
      const started = await manager.post(`${fx.base}/status/batch`, { f: 2, services: [due] });
      expect(started.body.services[0]).toMatchObject({ f: 2, start_date: fx.today(), ins: 1 });
      const rejected = await manager.post(`${fx.base}/status/batch`, { f: 16, services: [due] });
      expect(rejected.body.services[0]).toMatchObject({ f: 16, ins: 0 });
      expect((await viewer.post(`${fx.base}/status/batch`, { f: 16, services: [due] })).status).toBe(403);
    });
  });

  describe('archive', () => {
    it('lists closed and rejected services by end date within a checked range', async () => {
      const uid = await fx.unit();
      const closedOld = await create(uid, 8, { start_date: fx.iso(-40), end_date: fx.iso(-30) });
      const closedNew = await create(uid, 8, { end_date: fx.iso(-1) });
      const rejected = await create(uid, 1);
      await manager.post(`${fx.base}/${rejected}/status`, { f: 16 });
      await create(uid, 1);
      const ids = async (from: string | number, to: string | number) => {
        const res = await viewer.get(`${fx.base}/archived?from=${from}&to=${to}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.services.filter((s: any) => s.uid === uid).map((s: any) => s.id);
      };
      expect(await ids(fx.iso(-2), fx.iso(0))).toEqual([closedNew, rejected]);
      expect(await ids(fx.day(-31), fx.day(-30) + 3600)).toEqual([closedOld]);
      expect(await ids(fx.iso(-60), fx.iso(0))).toEqual([closedOld, closedNew, rejected]);
      for (const q of [
        `from=${fx.iso(0)}&to=${fx.iso(-1)}`,
        `from=${fx.iso(-400)}&to=${fx.iso(0)}`,
        `from=x&to=y`,
        `to=1`,
      ]) {
        const res = await viewer.get(`${fx.base}/archived?${q}`);
        expect(res.status, q).toBe(400);
        expect(res.body.error).toBe(4);
      }
    });

    it('corrections need archiveEdit; the status stays frozen', async () => {
      const uid = await fx.unit();
      const id = await create(uid, 8, { start_date: fx.iso(-3), end_date: fx.iso(-2), manual_cost: 5 });
      const url = `${fx.base}/archived/${id}`;
      expect((await viewer.put(url, { description: 'x' })).status).toBe(403);
      expect((await mechanic.put(url, { description: 'x' })).status).toBe(403);
      // The status is frozen: another `f` is refused (400 naming it), the stored one is no change.
      const reopen = await manager.put(url, { f: 2 });
      expect(reopen.status, JSON.stringify(reopen.body)).toBe(400);
      expect(reopen.body.details).toEqual([{ field: 'body.f', message: 'Cannot be changed' }]);
      const same = await manager.put(url, { f: 8 });
      expect(same.status, JSON.stringify(same.body)).toBe(200);
      expect(same.body.f).toBe(8);
      expect((await manager.put(url, { status: 2 })).status).toBe(400);
      expect((await manager.put(url, { end_date: fx.iso(-4) })).status).toBe(400);
      const res = await manager.put(url, {
        end_date: fx.iso(-1),
        description: 'fixed',
        mileage: 42,
        li: [{ n: 'Bolt', t: 2, q: 4, c: 0.25 }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        f: 8,
        end_date: fx.day(-1),
        description: 'fixed',
        mileage: 42,
        total_cost: 1,
        manual_cost: null,
      });
      const open = await create(uid, 1);
      expect((await manager.put(`${fx.base}/archived/${open}`, { description: 'x' })).status).toBe(409);
    });

    it('correcting the closed service a baseline came from moves the baseline; older ones do not', async () => {
      const uid = await fx.unit(9000, 90);
      const { ivid, aid } = await fx.assignment(uid);
      const older = await create(uid, 8, { ivid, end_date: fx.iso(-5), mileage: 8000 });
      const last = await create(uid, 8, { ivid, end_date: fx.iso(-2), mileage: 8800, engine_hours: 88 });
      expect(await fx.assignmentRow(aid)).toMatchObject({ lcnm: 8800, lceh: 88, ltm: fx.day(-2), cnt: 2 });
      const events = await EventsClient.connect(t.url, viewer.ssid);
      await manager.put(`${fx.base}/archived/${older}`, { mileage: 7000, end_date: fx.iso(-6) });
      expect(await fx.assignmentRow(aid)).toMatchObject({ lcnm: 8800, ltm: fx.day(-2) });
      await manager.put(`${fx.base}/archived/${last}`, { mileage: 8850, end_date: fx.iso(-1) });
      expect(await fx.assignmentRow(aid)).toMatchObject({ lcnm: 8850, lceh: 88, ltm: fx.day(-1), cnt: 2 });
      const interval = await events.next(
        (e) =>
          e.s === 'interval' && e.t === 'u' && (e.d as any).id === ivid && (e.d as any).u[0]?.lcnm === 8850,
      );
      expect((interval.d as any).u[0]).toMatchObject({ id: uid, t: 'u', ltm: fx.day(-1), cnt: 2 });
      events.close();
    });

    it('deletion needs archiveDelete, only of archived services, all or none', async () => {
      const uid = await fx.unit();
      const [a, b, c] = [await create(uid, 8), await create(uid, 8), await create(uid, 8)];
      const open = await create(uid, 1);
      expect((await mechanic.delete(`${fx.base}/archived/${a}`)).status).toBe(403);
      expect((await manager.delete(`${fx.base}/archived/${open}`)).status).toBe(409);
      expect((await manager.delete(`${fx.base}/archived/99999999`)).status).toBe(404);
      const bad = await manager.delete(`${fx.base}/archived/batch`, { services: [b, open] });
      expect(bad.status).toBe(409);
      expect(bad.body.details).toEqual([{ id: open, reason: 'Not archived' }]);
      expect((await manager.delete(`${fx.base}/archived/batch`, { services: 'b' })).body.reason).toBe(
        'items should be array',
      );
      expect((await manager.delete(`${fx.base}/archived/${a}`)).status).toBe(200);
      expect((await manager.delete(`${fx.base}/archived/batch`, { services: [b, c] })).body).toEqual({
        error: 0,
        deleted: 2,
      });
      expect(await countOf(uid)).toBe(1);
      expect((await manager.get(`${fx.base}/${b}`)).status).toBe(404);
    });
  });
});
