import { fromThousandths, localDate } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../../context.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * The statistics calls (spec §7 "Fleet") over the daily counter history that ingestion writes:
 * distance of a period in fleet days (the demo fleet is UTC+3), closed service costs, corrections.
 */
describe('statistics', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let viewer: Client;
  let outsider: Client;
  /** The unit that drives over several days, and its device id. */
  let uid: number;
  let device: string;

  const HOUR = 3600;
  /** A moment `hours` into the fleet day `offset` days from today. */
  const at = (offset: number, hours: number) => fx.day(offset) + Math.round(hours * HOUR);
  const send = (id: string, time: number, km: number, hours: number) =>
    t.anon.get(
      `/api/ingest/osmand?id=${id}&lat=53.9&lon=27.5&timestamp=${time}&odometer=${Math.round(km * 1000)}&hours=${hours}`,
    );
  const unitStats = (from: string | number, to: string | number, unit = uid, client = manager) =>
    client.get(`/api/fleets/${fx.fleetId}/units/${unit}/statistics?from=${from}&to=${to}`);
  const fleetStats = (from: string, to: string, client = manager) =>
    client.get(`/api/fleets/${fx.fleetId}/statistics?from=${from}&to=${to}`);
  const deviceOf = async (id: number) =>
    (await fx.db.selectFrom('units').select('device_id').where('id', '=', id).executeTakeFirstOrThrow())
      .device_id;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
    uid = await fx.unit(5000, 300);
    device = await deviceOf(uid);
    // Day -5 10:00 and 23:59, day -4 00:01 and 12:00, day -2 09:00 (fleet time, UTC+3): the two
    // readings around midnight fall on one UTC day but on two fleet days.
    for (const [time, km, hours] of [
      [at(-5, 10), 5100, 301],
      [at(-5, 23 + 59 / 60), 5150, 302],
      [at(-4, 1 / 60), 5152, 302.1],
      [at(-4, 12), 5230, 305],
      [at(-2, 9), 5300, 307],
    ] as const) {
      const res = await send(device, time, km, hours);
      expect(res.body).toEqual({ ok: true });
    }
  });
  afterAll(() => t?.close());

  it('keeps one row per unit and fleet day with its first and last counters', async () => {
    const rows = await fx.db
      .selectFrom('counter_days')
      .selectAll()
      .where('unit_id', '=', uid)
      .orderBy('day')
      .execute();
    expect(rows).toEqual([
      {
        unit_id: uid,
        day: fx.day(-5),
        first_mileage: 5100,
        last_mileage: 5150,
        first_engine_hours: 301,
        last_engine_hours: 302,
      },
      {
        unit_id: uid,
        day: fx.day(-4),
        first_mileage: 5152,
        last_mileage: 5230,
        first_engine_hours: 302.1,
        last_engine_hours: 305,
      },
      {
        unit_id: uid,
        day: fx.day(-2),
        first_mileage: 5300,
        last_mileage: 5300,
        first_engine_hours: 307,
        last_engine_hours: 307,
      },
    ]);
    // Fleet midnight is 21:00 UTC of the day before (UTC+3).
    expect(new Date(fx.day(-4) * 1000).getUTCHours()).toBe(21);
  });

  it('measures the distance of a period in fleet days, both ends included', async () => {
    // From the last counter of the day before (23:59 on day -5) to the last of day -4.
    const one = await unitStats(fx.iso(-4), fx.iso(-4));
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      from: fx.iso(-4),
      to: fx.iso(-4),
      fm: expect.any(Number),
      mileage: 80,
      engine_hours: 3,
      services_cost: 0,
      fuel_cost: 0,
      total_cost: 0,
      services_count: 0,
      fuel_count: 0,
      fuel_volume: 0,
      consumption: null,
      cost_per_km: 0,
      days: [],
    });
    expect((await unitStats(fx.iso(-4), fx.iso(-2))).body).toMatchObject({ mileage: 150, engine_hours: 5 });
    // Nothing recorded before: from the first counter of the first day in the period.
    expect((await unitStats(fx.iso(-5), fx.iso(-5))).body).toMatchObject({ mileage: 50, engine_hours: 1 });
    expect((await unitStats(fx.iso(-6), fx.iso(-2))).body).toMatchObject({ mileage: 200, engine_hours: 6 });
    // Unix seconds are read as the fleet day they fall in, like the archive's range.
    expect((await unitStats(at(-4, 2), at(-4, 20))).body).toMatchObject({ from: fx.iso(-4), mileage: 80 });
  });

  it('answers 0 and no cost per km for a period without readings', async () => {
    for (const [from, to] of [
      [-3, -3],
      [-20, -10],
      [-1, 0],
    ] as const) {
      const res = await unitStats(fx.iso(from), fx.iso(to));
      expect(res.body).toMatchObject({ mileage: 0, engine_hours: 0, cost_per_km: null });
    }
  });

  it('counts the cost of closed services ended in the period, and only those', async () => {
    const other = await fx.unit();
    const driver = await fx.db
      .selectFrom('drivers')
      .select('id')
      .where('fleet_id', '=', fx.fleetId)
      .executeTakeFirstOrThrow();
    const create = async (body: object) => {
      const res = await manager.post(fx.base, { n: 'Stats service', t: 'u', uid, ...body });
      expect(res.status).toBe(200);
      return res.body;
    };
    const lines = [
      { n: 'Brake pad (stats)', t: 2, q: 3, c: 19.99 },
      { n: 'Fitting (stats)', t: 1, q: '0.5', c: '0.1' },
    ];
    const closed = await create({ f: 8, start_date: fx.iso(-4), end_date: fx.iso(-4), li: lines });
    expect(closed.total_cost).toBe(60.02);
    await create({ f: 8, start_date: fx.iso(-3), end_date: fx.iso(-2), manual_cost: '120.5' });
    await create({ f: 8, start_date: fx.iso(-8), end_date: fx.iso(-8), manual_cost: 1000 });
    await create({ f: 2, start_date: fx.iso(-4), li: lines });
    await create({ f: 1, limit_date: fx.iso(1), li: lines });
    const rejected = await create({ f: 1, limit_date: fx.iso(1), li: lines });
    expect((await manager.post(`${fx.base}/${rejected.id}/status`, { f: 16 })).status).toBe(200);
    await create({ uid: other, f: 8, start_date: fx.iso(-4), end_date: fx.iso(-4), manual_cost: 7 });
    await create({
      t: 'd',
      uid: driver.id,
      f: 8,
      start_date: fx.iso(-3),
      end_date: fx.iso(-3),
      manual_cost: 3.5,
    });

    expect((await unitStats(fx.iso(-4), fx.iso(-4))).body).toMatchObject({
      mileage: 80,
      services_cost: 60.02,
      cost_per_km: 0.75, // 60.02 / 80 = 0.75025
    });
    expect((await unitStats(fx.iso(-4), fx.iso(0))).body).toMatchObject({
      mileage: 150,
      services_cost: 180.52,
      fuel_cost: 0,
      cost_per_km: 1.203, // 180.52 / 150
    });
    // Cost without distance: no cost per km.
    expect((await unitStats(fx.iso(-8), fx.iso(-8))).body).toMatchObject({
      mileage: 0,
      services_cost: 1000,
      cost_per_km: null,
    });
    // The same totals as the archive's wire (maintenance-wire.ts total_cost) of those services.
    const archived = await manager.get(`${fx.base}/archived?from=${fx.iso(-4)}&to=${fx.iso(0)}`);
    const closedOfUnit = (
      archived.body.services as { uid: number; t: string; f: number; total_cost: number }[]
    )
      .filter((s) => s.t === 'u' && s.uid === uid && s.f === 8)
      .reduce((sum, s) => sum + Math.round(s.total_cost * 1000), 0);
    expect(fromThousandths(closedOfUnit)).toBe(180.52);

    const fleet = await fleetStats(fx.iso(-4), fx.iso(-2));
    expect(fleet.status).toBe(200);
    const rows = fleet.body.units as { uid: number; mileage: number; services_cost: number }[];
    expect(rows.find((r) => r.uid === uid)).toEqual({
      uid,
      mileage: 150,
      engine_hours: 5,
      services_cost: 180.52,
      cost_per_km: 1.203,
      fuel_cost: 0,
      total_cost: 180.52,
      services_count: 2,
      fuel_count: 0,
      fuel_volume: 0,
      consumption: null,
    });
    expect(rows.find((r) => r.uid === other)).toEqual({
      uid: other,
      mileage: 0,
      engine_hours: 0,
      services_cost: 7,
      cost_per_km: null,
      fuel_cost: 0,
      total_cost: 7,
      services_count: 1,
      fuel_count: 0,
      fuel_volume: 0,
      consumption: null,
    });
    // Totals: every unit's distance; every closed service of the fleet (the driver's too).
    const km = rows.reduce((sum, r) => sum + r.mileage, 0);
    expect(fleet.body.mileage).toBeCloseTo(km, 3);
    expect(fleet.body.services_cost).toBe(191.02);
    expect(fleet.body.fuel_cost).toBe(0);
    expect(Math.abs(fleet.body.cost_per_km - 191.02 / fleet.body.mileage)).toBeLessThanOrEqual(0.0006);
    expect(rows.map((r) => r.uid)).toEqual([...rows.map((r) => r.uid)].sort((a, b) => a - b));
  });

  it('gives the demo units a history of plausible daily distances ending at their counters', async () => {
    const res = await fleetStats(fx.iso(-30), fx.iso(0));
    const demoUnits = await fx.db
      .selectFrom('units')
      .select(['id', 'mileage'])
      .where('fleet_id', '=', fx.fleetId)
      .where('device_id', 'like', 'demo-%')
      .execute();
    const rows = new Map((res.body.units as { uid: number; mileage: number }[]).map((r) => [r.uid, r]));
    const moving = demoUnits.filter((u) => u.mileage > 0);
    for (const u of moving) {
      const km = rows.get(u.id)?.mileage ?? 0;
      expect(km).toBeGreaterThan(0);
      expect(km).toBeLessThan(31 * 3000);
    }
    const last = await fx.db
      .selectFrom('counter_days')
      .select(['unit_id', 'last_mileage'])
      .where('day', '=', fx.day(0))
      .where(
        'unit_id',
        'in',
        moving.map((u) => u.id),
      )
      .execute();
    expect(last.map((r) => r.last_mileage).sort()).toEqual(moving.map((u) => u.mileage).sort());
  });

  it('does not count a hand correction as distance driven, up or down', async () => {
    const up = await manager.put(`/api/fleets/${fx.fleetId}/units/${uid}`, { cnm: 6300, cneh: 400 });
    expect(up.status).toBe(200);
    expect(await fx.unitRow(uid)).toMatchObject({ counter_off_mileage: 1000, counter_off_engine_hours: 93 });
    expect((await send(device, now() - 2, 6320, 401)).body).toEqual({ ok: true });
    // Day -2: 5230 → 5300; today: +20 after the correction of +1000.
    expect((await unitStats(fx.iso(-2), fx.iso(0))).body).toMatchObject({ mileage: 90, engine_hours: 3 });
    expect((await unitStats(fx.iso(0), fx.iso(0))).body).toMatchObject({ mileage: 20, engine_hours: 1 });

    const down = await fx.unit(5000, 100);
    const id = await deviceOf(down);
    expect((await send(id, at(-1, 10), 5040, 101)).body).toEqual({ ok: true });
    expect((await manager.put(`/api/fleets/${fx.fleetId}/units/${down}`, { cnm: 100 })).status).toBe(200);
    expect((await send(id, now() - 1, 110, 101.5)).body).toEqual({ ok: true });
    expect((await unitStats(fx.iso(-1), fx.iso(0), down)).body).toMatchObject({
      mileage: 10,
      engine_hours: 0.5,
    });
    // The history holds counters less the corrections (−4940): driven counters only move forward.
    const rows = await fx.db
      .selectFrom('counter_days')
      .select(['day', 'first_mileage', 'last_mileage'])
      .where('unit_id', '=', down)
      .orderBy('day')
      .execute();
    expect(rows).toEqual([
      { day: fx.day(-1), first_mileage: 5040, last_mileage: 5040 },
      { day: fx.day(0), first_mileage: 5050, last_mileage: 5050 },
    ]);
    expect(await fx.unitRow(down)).toMatchObject({
      mileage: 110,
      counter_day: fx.day(0),
      counter_day_end: fx.day(1),
      counter_off_mileage: -4940,
    });
  });

  it('writes the history once per unit and fleet day: later readings of the day move the live counters', async () => {
    const unit = await fx.unit(1000, 10);
    const id = await deviceOf(unit);
    for (const [time, km] of [
      [at(-3, 8), 1010],
      [at(-3, 12), 1050],
      [at(-3, 18), 1090],
    ] as const)
      expect((await send(id, time, km, 10)).body).toEqual({ ok: true });
    const stored = () => fx.db.selectFrom('counter_days').selectAll().where('unit_id', '=', unit).execute();
    // One row, as the first reading of the day wrote it; the day's last counters are the unit's own.
    expect(await stored()).toEqual([
      {
        unit_id: unit,
        day: fx.day(-3),
        first_mileage: 1010,
        last_mileage: 1010,
        first_engine_hours: 10,
        last_engine_hours: 10,
      },
    ]);
    expect((await unitStats(fx.iso(-3), fx.iso(-3), unit)).body).toMatchObject({ mileage: 80 });
    // The next day finishes it at the counters before its first reading.
    expect((await send(id, at(-2, 7), 1100, 10)).body).toEqual({ ok: true });
    expect((await stored()).map((r) => [r.day, r.first_mileage, r.last_mileage])).toEqual([
      [fx.day(-3), 1010, 1090],
      [fx.day(-2), 1100, 1100],
    ]);
    expect((await unitStats(fx.iso(-3), fx.iso(-3), unit)).body).toMatchObject({ mileage: 80 });
    expect((await unitStats(fx.iso(-2), fx.iso(-2), unit)).body).toMatchObject({ mileage: 10 });
  });

  it('lets readers of services in and keeps other fleets out', async () => {
    expect((await unitStats(fx.iso(-4), fx.iso(-4), uid, viewer)).body).toMatchObject({ mileage: 80 });
    expect((await fleetStats(fx.iso(-4), fx.iso(-4), viewer)).status).toBe(200);
    const denied = await unitStats(fx.iso(-4), fx.iso(-4), uid, outsider);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe(7);
    expect((await fleetStats(fx.iso(-4), fx.iso(-4), outsider)).status).toBe(403);
    const admin = await t.login('admin');
    expect((await fleetStats(fx.iso(-4), fx.iso(-4), admin)).status).toBe(403);
    // A unit of another fleet answers like an unknown one.
    const foreign = await fx.db
      .selectFrom('units')
      .select('id')
      .where('fleet_id', '=', t.demo.otherFleetId)
      .executeTakeFirstOrThrow();
    const a = await unitStats(fx.iso(-4), fx.iso(-4), foreign.id);
    const b = await unitStats(fx.iso(-4), fx.iso(-4), 999_999);
    expect(a.status).toBe(404);
    expect(a.body).toEqual(b.body);
    expect(a.body.error).toBe(5);
    // The outsider's own fleet's figures hold nothing of the demo fleet.
    const own = await outsider.get(
      `/api/fleets/${t.demo.otherFleetId}/statistics?from=${fx.iso(-4)}&to=${fx.iso(-2)}`,
    );
    expect(own.status).toBe(200);
    expect((own.body.units as { uid: number }[]).some((r) => r.uid === uid)).toBe(false);
    expect(own.body.services_cost).toBe(0);
  });

  it('refuses bad dates like the archive: format, order, at most 366 days', async () => {
    const fields = (body: any) => (body.details as { field: string }[]).map((d) => d.field).sort();
    const cases: [string, string, string[]][] = [
      ['2025-13-01', '2025-12-31', ['querystring.from']],
      ['2025-02-30', 'yesterday', ['querystring.from', 'querystring.to']],
      [fx.iso(-1), fx.iso(-2), ['querystring.to']],
      [localDate(fx.tz, now() - 400 * DAY), fx.iso(0), ['querystring.to']],
    ];
    for (const [from, to, bad] of cases) {
      for (const res of [await unitStats(from, to), await fleetStats(from, to)]) {
        expect(res.status).toBe(400);
        expect(res.body.error).toBe(4);
        expect(fields(res.body)).toEqual(bad);
      }
    }
    expect((await manager.get(`/api/fleets/${fx.fleetId}/statistics?from=${fx.iso(-1)}`)).status).toBe(400);
    expect((await unitStats(localDate(fx.tz, now() - 365 * DAY), fx.iso(0))).status).toBe(200);
  });
});
