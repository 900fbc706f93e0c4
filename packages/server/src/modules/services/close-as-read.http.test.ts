import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../../context.js';
import { assign, createInterval } from '../../test/engine-fixtures.js';
import { type Client, sendOdometer, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * Closing a service with the record as GET returns it (PRODUCT.md "Written-back records"): its
 * `mileage: null` and `engine_hours: null` mean "not given", so closing takes the object's current
 * counters and resets the interval's baseline to them, exactly as `{f: 8}` alone does; no new service
 * appears until the next notice. A tracker-fed unit at 902,220 km, every 1,000 km with 200 km notice.
 */
describe('closing a service from its read shape', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
  });
  afterAll(() => t?.close());

  /** A unit fed by its tracker whose mileage service fell due, then overdue at 902,220 km. */
  async function overdue() {
    const unitId = await fx.unit(901_700, 4321.5);
    const { device_id: deviceId } = await fx.unitRow(unitId);
    const intervalId = await createInterval(fx.db, fx.fleetId, `close as read ${++n}`, {
      cnme: 1,
      cnmd: 1000,
      cnmo: 200,
    });
    const aid = await assign(fx.db, {
      fleetId: fx.fleetId,
      intervalId,
      type: 'u',
      id: unitId,
      lcnm: 901_000,
      lceh: 4000,
      ltm: now() - 40 * DAY,
    });
    await sendOdometer(t, deviceId, 901_850, 120);
    await sendOdometer(t, deviceId, 902_220, 60);
    const open = await openOf(aid);
    expect(open).toHaveLength(1);
    const read = await manager.get(`${fx.base}/${open[0]!.id}`);
    expect(read.status).toBe(200);
    // Overdue by mileage, and as read it carries no service counters yet.
    expect(read.body).toMatchObject({
      f: 1 | 4 | 256,
      mileage: null,
      engine_hours: null,
      limit_mileage: 902_000,
    });
    return { unitId, aid, intervalId, service: read.body as Record<string, unknown> & { id: number } };
  }

  const openOf = (aid: number) =>
    fx.db
      .selectFrom('services')
      .select(['id', 'f', 'limit_mileage'])
      .where('assignment_id', '=', aid)
      .where(sql<number>`(f & 24)`, '=', 0)
      .execute();

  /** The baseline is the closing counters, one execution counted, and no service until the next notice. */
  async function expectReset(aid: number, unitId: number, serviceId: number) {
    const unit = await fx.unitRow(unitId);
    expect(unit.mileage).toBe(902_220);
    expect(await fx.assignmentRow(aid)).toMatchObject({
      lcnm: unit.mileage,
      lceh: unit.engine_hours,
      ltm: fx.today(),
      cnt: 1,
    });
    expect(await openOf(aid)).toEqual([]);
    const closed = (await manager.get(`${fx.base}/${serviceId}`)).body;
    expect(closed).toMatchObject({ f: 8, mileage: unit.mileage, engine_hours: unit.engine_hours });
    // The next cycle: nothing until 903,020 km (notice 200 before 903,220).
    await sendOdometer(t, unit.device_id, 903_000, 30);
    expect(await openOf(aid)).toEqual([]);
    await sendOdometer(t, unit.device_id, 903_030, 10);
    expect(await openOf(aid)).toMatchObject([{ limit_mileage: 903_220 }]);
  }

  it('PUT .../services/{id}: the whole record as read with f 8', async () => {
    const { unitId, aid, service } = await overdue();
    const res = await manager.put(`${fx.base}/${service.id}`, { ...service, f: 8 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectReset(aid, unitId, service.id);
  });

  it('PUT .../services/batch: records as read with f 8', async () => {
    const { unitId, aid, service } = await overdue();
    const res = await manager.put(`${fx.base}/batch`, { services: [{ ...service, f: 8 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectReset(aid, unitId, service.id);
  });

  it('POST .../services/status/batch: close takes each object counters', async () => {
    const { unitId, aid, service } = await overdue();
    const res = await manager.post(`${fx.base}/status/batch`, { f: 8, services: [service.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectReset(aid, unitId, service.id);
  });

  it('an explicit mileage still wins over the counters', async () => {
    const { aid, service } = await overdue();
    const res = await manager.put(`${fx.base}/${service.id}`, { ...service, f: 8, mileage: 902_100 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ mileage: 902_100, engine_hours: 4321.5 });
    expect(await fx.assignmentRow(aid)).toMatchObject({ lcnm: 902_100, lceh: 4321.5, cnt: 1 });
  });

  it('a closed service created or imported with null counters takes the object counters too', async () => {
    for (const path of ['', '/batch']) {
      const { unitId, aid, intervalId, service } = await overdue();
      // The open one is rejected first: a closed service of the interval is then created by hand.
      expect((await manager.post(`${fx.base}/${service.id}/status`, { f: 16 })).status).toBe(200);
      const row = {
        n: 'Closed by hand',
        t: 'u',
        uid: unitId,
        ivid: intervalId,
        f: 8,
        mileage: null,
        engine_hours: null,
      };
      const res = await manager.post(`${fx.base}${path}`, path ? { services: [row] } : row);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const made = path ? res.body.services[0] : res.body;
      expect(made).toMatchObject({ f: 8, mileage: 902_220, engine_hours: 4321.5 });
      expect(await fx.assignmentRow(aid)).toMatchObject({ lcnm: 902_220, lceh: 4321.5, cnt: 1 });
    }
  });

  it('an archive correction with null counters (as read) keeps them', async () => {
    const { aid, service } = await overdue();
    const closed = (await manager.put(`${fx.base}/${service.id}`, { f: 8 })).body;
    expect(closed.mileage).toBe(902_220);
    const res = await manager.put(`${fx.base}/archived/${service.id}`, {
      ...closed,
      mileage: null,
      engine_hours: null,
      description: 'corrected',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ mileage: 902_220, engine_hours: 4321.5, description: 'corrected' });
    expect(await fx.assignmentRow(aid)).toMatchObject({ lcnm: 902_220, lceh: 4321.5 });
  });
});
