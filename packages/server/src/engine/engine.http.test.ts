import { addCalendar, startOfDay } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../context.js';
import type { Database } from '../db/schema.js';
import { ingestReading } from '../telematics/ingest.js';
import {
  assign,
  createInterval,
  finish,
  openServicesOf,
  servicesOf,
  setCounters,
  snapshot,
} from '../test/engine-fixtures.js';
import { EventsClient } from '../test/events-client.js';
import { accountOf, createUnit, startTestServer, type TestServer } from '../test/harness.js';
import { recompute, startEngine } from './index.js';
import { sweep } from './timer.js';

const LINES = [
  { name: 'Oil filter', kind: 2, qty: 1000, cost: 12500 },
  { name: 'Oil change', kind: 1, qty: 1500, cost: 40000 },
];

describe('status engine (PRODUCT.md "The status engine")', () => {
  let t: TestServer;
  let db: Kysely<Database>;
  let fleetId: number;
  let accountId: number;
  let tz: number;
  const T = now();
  let n = 0;
  const unit = async (mileage = 1000, engineHours = 100) =>
    createUnit(t, { accountId, fleetId, name: `engine unit ${++n}`, mileage, engineHours });
  const run = (scope: Parameters<typeof recompute>[1], at?: number) => recompute(t.server.ctx, scope, at);

  beforeAll(async () => {
    t = await startTestServer();
    db = t.server.ctx.db.kysely;
    fleetId = t.demo.fleetId;
    accountId = await accountOf(t, 'manager');
    tz = (await db.selectFrom('fleets').select('tz').where('id', '=', fleetId).executeTakeFirstOrThrow()).tz;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates one Due service at the mileage advance notice, with line items and limits, then overdue', async () => {
    const u = await unit();
    const iv = await createInterval(db, fleetId, 'Oil 10k', { cnme: 1, cnmd: 10000, cnmo: 500 }, LINES);
    const a = await assign(db, { fleetId, intervalId: iv, type: 'u', id: u, lcnm: 1000, lceh: 100, ltm: T });
    await setCounters(db, u, 10499, 100);
    expect(await run({ objects: [{ type: 'u', id: u }] })).toEqual({ created: 0, changed: 0 });

    await setCounters(db, u, 10500, 100);
    expect(await run({ objects: [{ type: 'u', id: u }] })).toEqual({ created: 1, changed: 0 });
    expect(await run({ fleetId })).toEqual({ created: 0, changed: 0 });
    const [s, ...more] = await servicesOf(db, a);
    expect(more).toEqual([]);
    expect(s).toMatchObject({
      f: 1,
      name: 'Oil 10k',
      description: 'Oil 10k description',
      fleet_id: fleetId,
      object_type: 'u',
      object_id: u,
      interval_id: iv,
      limit_mileage: 11000,
      limit_engine_hours: null,
      last_mileage: 1000,
      last_engine_hours: 100,
      last_date: T,
      planned_date: startOfDay(tz, now()),
      forecast_date: null,
    });
    const lines = await db
      .selectFrom('service_line_items')
      .select(['position', 'name', 'kind', 'qty', 'cost'])
      .where('service_id', '=', s!.id)
      .orderBy('position')
      .execute();
    expect(lines).toEqual(LINES.map((l, position) => ({ position, ...l })));

    await setCounters(db, u, 11000, 100);
    expect(await run({ objects: [{ type: 'u', id: u }] })).toEqual({ created: 0, changed: 0 });
    await setCounters(db, u, 11000.5, 100);
    expect(await run({ objects: [{ type: 'u', id: u }] })).toEqual({ created: 0, changed: 1 });
    expect((await servicesOf(db, a)).map((x) => x.f)).toEqual([1 | 4 | 256]);

    // Closing resets the baseline; the next cycle starts from there (PRODUCT.md).
    await finish(db, (await servicesOf(db, a))[0]!, 'close', T, { mileage: 11000.5, engineHours: 100 });
    expect(await run({ objects: [{ type: 'u', id: u }] })).toEqual({ created: 0, changed: 0 });
    await setCounters(db, u, 20500.5, 100);
    expect(await run({ objects: [{ type: 'u', id: u }] })).toEqual({ created: 1, changed: 0 });
    const open = await openServicesOf(db, a);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ f: 1, last_mileage: 11000.5, limit_mileage: 21000.5 });
    const row = await db
      .selectFrom('assignments')
      .select('cnt')
      .where('id', '=', a)
      .executeTakeFirstOrThrow();
    expect(row.cnt).toBe(1);

    // Rejecting resets the baseline to the moment, so the service is not created again at once.
    await finish(db, open[0]!, 'reject', T, { mileage: 20500.5, engineHours: 100 });
    expect(await run({ objects: [{ type: 'u', id: u }] })).toEqual({ created: 0, changed: 0 });
    expect(await openServicesOf(db, a)).toEqual([]);
  });

  it('engine hours: due at the notice, overdue 4|512 past the frequency', async () => {
    const u = await unit(5000, 100);
    const iv = await createInterval(db, fleetId, 'Hours 250', { cnehe: 1, cnehd: 250, cneho: 10 });
    const a = await assign(db, { fleetId, intervalId: iv, type: 'u', id: u, lcnm: 5000, lceh: 100, ltm: T });
    await setCounters(db, u, 5000, 339.9);
    expect((await run({ assignmentIds: [a] })).created).toBe(0);
    await setCounters(db, u, 5000, 340);
    expect((await run({ assignmentIds: [a] })).created).toBe(1);
    expect(await openServicesOf(db, a)).toMatchObject([
      { f: 1, limit_engine_hours: 350, limit_mileage: null },
    ]);
    await setCounters(db, u, 5000, 351);
    expect((await run({ assignmentIds: [a] })).changed).toBe(1);
    expect((await openServicesOf(db, a))[0]!.f).toBe(1 | 4 | 512);
    // Back within the threshold (a corrected counter) clears the flags.
    await setCounters(db, u, 5000, 349);
    expect((await run({ assignmentIds: [a] })).changed).toBe(1);
    expect((await openServicesOf(db, a))[0]!.f).toBe(1);
  });

  it('time: due at the notice with the due date planned, overdue 4|1024 after it', async () => {
    const u = await unit();
    const iv = await createInterval(db, fleetId, 'Monthly', { de: 1, dd: 1, du: 'm', do: 5 });
    const a = await assign(db, { fleetId, intervalId: iv, type: 'u', id: u, lcnm: 1000, lceh: 100, ltm: T });
    const due = startOfDay(tz, addCalendar(tz, T, 1, 'm'));
    expect((await run({ assignmentIds: [a] }, due - 6 * DAY)).created).toBe(0);
    expect((await run({ assignmentIds: [a] }, due - 5 * DAY)).created).toBe(1);
    expect(await openServicesOf(db, a)).toMatchObject([{ f: 1, planned_date: due, last_date: T }]);
    expect((await run({ assignmentIds: [a] }, due + DAY - 1)).changed).toBe(0);
    expect((await run({ assignmentIds: [a] }, due + DAY)).changed).toBe(1);
    expect((await openServicesOf(db, a))[0]!.f).toBe(1 | 4 | 1024);
  });

  it('drivers and trailers follow time rules only, and In progress services are left alone', async () => {
    const driver = await db
      .selectFrom('drivers')
      .select('id')
      .where('fleet_id', '=', fleetId)
      .executeTakeFirstOrThrow();
    const trailer = await db
      .selectFrom('trailers')
      .select('id')
      .where('fleet_id', '=', fleetId)
      .executeTakeFirstOrThrow();
    const byKm = await createInterval(db, fleetId, 'Km only', { cnme: 1, cnmd: 1, cnmo: 1 });
    const mixed = await createInterval(db, fleetId, 'Km or weeks', {
      cnme: 1,
      cnmd: 1,
      cnmo: 1,
      de: 1,
      dd: 2,
      du: 'w',
      do: 0,
    });
    const a1 = await assign(db, { fleetId, intervalId: byKm, type: 'd', id: driver.id, ltm: T });
    const a2 = await assign(db, { fleetId, intervalId: mixed, type: 't', id: trailer.id, ltm: T });
    const due = startOfDay(tz, addCalendar(tz, T, 2, 'w'));
    const scope = {
      objects: [
        { type: 'd' as const, id: driver.id },
        { type: 't' as const, id: trailer.id },
      ],
    };
    expect(await run(scope, due - DAY)).toEqual({ created: 0, changed: 0 });
    expect(await run(scope, due)).toEqual({ created: 1, changed: 0 });
    expect(await openServicesOf(db, a1)).toEqual([]);
    const [s] = await openServicesOf(db, a2);
    expect(s).toMatchObject({
      f: 1,
      object_type: 't',
      limit_mileage: null,
      planned_date: due,
      last_mileage: null,
    });

    await db.updateTable('services').set({ f: 2 }).where('id', '=', s!.id).execute();
    expect(await run(scope, due + 30 * DAY)).toEqual({ created: 0, changed: 0 });
    expect((await servicesOf(db, a2)).map((x) => x.f)).toEqual([2]);
  });

  it('two recomputations at once create one service (unique open service per assignment)', async () => {
    const u = await unit(1000, 100);
    const iv = await createInterval(db, fleetId, 'Race', { cnme: 1, cnmd: 100, cnmo: 200 });
    const a = await assign(db, { fleetId, intervalId: iv, type: 'u', id: u, lcnm: 1000, ltm: T });
    const results = await Promise.all([
      run({ assignmentIds: [a] }),
      run({ fleetId }),
      run({ objects: [{ type: 'u', id: u }] }),
    ]);
    expect(results.reduce((sum, r) => sum + r.created, 0)).toBe(1);
    expect(await servicesOf(db, a)).toHaveLength(1);
  });

  it('a counter change through OsmAnd ingestion creates the service and a manager hears `service` `c`', async () => {
    const u = await unit(1000, 100);
    const { device_id: deviceId } = await db
      .selectFrom('units')
      .select('device_id')
      .where('id', '=', u)
      .executeTakeFirstOrThrow();
    const iv = await createInterval(db, fleetId, 'Ingested', { cnme: 1, cnmd: 1000, cnmo: 100 }, LINES);
    const a = await assign(db, { fleetId, intervalId: iv, type: 'u', id: u, lcnm: 1000, lceh: 100, ltm: T });
    const manager = await t.login('manager');
    const events = await EventsClient.connect(t.url, manager.ssid);
    try {
      const at = now();
      const reading = (time: number, odometerKm: number) => ({
        deviceId,
        time,
        lat: 52.5,
        lon: 13.4,
        speed: 0,
        course: 0,
        altitude: null,
        ignition: null,
        odometerKm,
        hours: null,
        params: {},
      });
      expect((await ingestReading(t.server.ctx, reading(at - 2 * DAY, 1100), at)).status).toBe('accepted');
      expect(await openServicesOf(db, a)).toEqual([]);
      expect((await ingestReading(t.server.ctx, reading(at, 1950), at)).status).toBe('accepted');
      const event = await events.next(
        (e) => e.s === 'service' && e.t === 'c' && (e.d as { eid: number }).eid === a,
      );
      expect(event.fid).toBe(fleetId);
      expect(event.d).toMatchObject({
        f: 1,
        uid: u,
        t: 'u',
        ivid: iv,
        limit_mileage: 2000,
        current_mileage: 1950,
        li: [
          { n: 'Oil filter', t: 2, q: 1, c: 12.5 },
          { n: 'Oil change', t: 1, q: 1.5, c: 40 },
        ],
        // 850 km over 2 days: 425 km a day, 50 km left → tomorrow.
        forecast_date: addCalendar(tz, startOfDay(tz, at), 1, 'd'),
      });
      expect(await openServicesOf(db, a)).toHaveLength(1);
    } finally {
      events.close();
    }
  });

  it('a regular sweep looks at time rules only; a full one (at start, hourly) at every assignment', async () => {
    const u = await unit(5000, 100);
    const mileage = await createInterval(db, fleetId, 'Sweep mileage', { cnme: 1, cnmd: 1000, cnmo: 100 });
    const time = await createInterval(db, fleetId, 'Sweep yearly', { de: 1, dd: 1, du: 'y', do: 30 });
    // Written straight into the table: no counter change or API call has run the engine for them.
    const byCounter = await assign(db, {
      fleetId,
      intervalId: mileage,
      type: 'u',
      id: u,
      lcnm: 1000,
      lceh: 100,
      ltm: T,
    });
    const byTime = await assign(db, {
      fleetId,
      intervalId: time,
      type: 'u',
      id: u,
      lcnm: 1000,
      lceh: 100,
      ltm: T,
    });
    const later = T + 400 * DAY;
    await sweep(t.server.ctx, later, false);
    expect(await openServicesOf(db, byTime)).toHaveLength(1);
    expect(await openServicesOf(db, byCounter)).toHaveLength(0);
    await sweep(t.server.ctx, later, true);
    expect(await openServicesOf(db, byCounter)).toMatchObject([{ f: 1 | 4 | 256 }]);
    expect(await sweep(t.server.ctx, later, true)).toEqual({ created: 0, changed: 0 });
  });

  it('the timer sweeps every fleet (time rules), and running again changes nothing', async () => {
    const u = await unit();
    const iv = await createInterval(db, fleetId, 'Yearly', { de: 1, dd: 1, du: 'y', do: 30 });
    const a = await assign(db, { fleetId, intervalId: iv, type: 'u', id: u, lcnm: 1000, lceh: 100, ltm: T });
    const future = T + 400 * DAY;
    const engine = startEngine(t.server.ctx, { everyMs: 100, clock: () => future });
    try {
      for (let i = 0; i < 100 && (await openServicesOf(db, a)).length === 0; i++)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      engine.stop();
    }
    expect(await openServicesOf(db, a)).toMatchObject([{ f: 1 | 4 | 1024 }]);
    await new Promise((r) => setTimeout(r, 300));
    const before = await snapshot(db, fleetId);
    expect(await run({ fleetId }, future)).toEqual({ created: 0, changed: 0 });
    expect(await snapshot(db, fleetId)).toEqual(before);
  });
});
