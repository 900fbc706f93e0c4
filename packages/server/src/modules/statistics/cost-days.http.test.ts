import { ACL_ALL, localDate, startOfDay, TZ_DST_EUROPE } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../../context.js';
import {
  accountOf,
  type Client,
  createFleet,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/**
 * Statistics from the daily aggregates, against hand-computed figures, on
 * both databases: a fleet in miles and US gallons with a filling written in litres before the fleet
 * changed its unit, decimals that must add up exactly (0.1 + 0.2), and a period across a
 * daylight-saving change in the fleet's zone.
 */
describe('statistics from daily aggregates', () => {
  let t: TestServer;
  let accountId: number;
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer();
    accountId = await accountOf(t, 'manager');
  });
  afterAll(() => t?.close());

  const db = () => t.server.ctx.db.kysely;

  /** A fleet of its own with a member holding every right. */
  async function fleetWith(settings: { tz: number; ms: number; fm: number }) {
    const fleetId = await createFleet(t, accountId, `Aggregates ${++n}`);
    await db().updateTable('fleets').set(settings).where('id', '=', fleetId).execute();
    const name = `aggregates-user-${n}`;
    await createUser(t, { name, accountId, memberships: [{ fleetId, acl: ACL_ALL }] });
    const client: Client = await t.login(name);
    const today = startOfDay(settings.tz, now());
    const dayStart = (offset: number) => startOfDay(settings.tz, today + offset * DAY + 6 * 3600);
    return {
      fleetId,
      client,
      dayStart,
      iso: (offset: number) => localDate(settings.tz, dayStart(offset)),
      unit: (km = 1000) =>
        createUnit(t, { accountId, fleetId, name: `aggregates unit ${++n}`, mileage: km, engineHours: 10 }),
      fuel: async (body: object) => {
        const res = await client.post(`/api/fleets/${fleetId}/fuel-fillings`, body);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body as { id: number; total_cost: number };
      },
      service: async (body: object) => {
        const res = await client.post(`/api/fleets/${fleetId}/services`, { n: 'Aggregated', ...body });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body as { id: number; total_cost: number };
      },
      stats: (from: string, to: string) =>
        client.get(`/api/fleets/${fleetId}/statistics?from=${from}&to=${to}`),
      unitStats: (uid: number, from: string, to: string) =>
        client.get(`/api/fleets/${fleetId}/units/${uid}/statistics?from=${from}&to=${to}`),
    };
  }

  const send = async (unitId: number, time: number, km: number) => {
    const { device_id: id } = await db()
      .selectFrom('units')
      .select('device_id')
      .where('id', '=', unitId)
      .executeTakeFirstOrThrow();
    const res = await t.anon.get(
      `/api/ingest/osmand?id=${id}&lat=53.9&lon=27.5&timestamp=${time}&odometer=${Math.round(km * 1000)}&hours=10`,
    );
    expect(res.body).toEqual({ ok: true });
  };

  it('adds up a miles fleet in gallons exactly', async () => {
    // UTC+3, miles, litres first (the first filling is written in litres).
    const f = await fleetWith({ tz: 180, ms: 1, fm: 1 });
    const unit = await f.unit(1000);
    const idle = await f.unit(5000);
    await send(unit, f.dayStart(-3) + 10 * 3600, 1000);
    await send(unit, f.dayStart(-2) + 12 * 3600, 1160.934);
    const driver = await db()
      .insertInto('drivers')
      .values({
        account_id: accountId,
        fleet_id: f.fleetId,
        name: 'Aggregated driver',
        ds: '',
        c: '',
        cf: '[]',
        ins: 0,
        created_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    // 37.854 l = 9.99996… US gal, 10.000 at 3 decimals; total entered by hand.
    await f.fuel({ uid: unit, date: f.dayStart(-2) + 8 * 3600, volume: '37.854', manual_cost: '50.005' });
    await db().updateTable('fleets').set({ fm: 2 }).where('id', '=', f.fleetId).execute();
    // 0.1 + 0.2 gallons and money: 0.3 exactly, not 0.30000000000000004.
    await f.fuel({ uid: unit, date: f.dayStart(-2) + 9 * 3600, volume: '0.1', manual_cost: '0.1' });
    await f.fuel({ uid: unit, date: f.dayStart(-2) + 10 * 3600, volume: '0.2', price: '1' });
    // Services: line items 3 × 0.1 + 1 × 0.2 = 0.5, a hand total 0.7, the driver's 0.3.
    const lines = [
      { n: 'Tenth', t: 2, q: 3, c: '0.1' },
      { n: 'Fifth', t: 1, q: 1, c: '0.2' },
    ];
    const day = f.iso(-2);
    await f.service({ t: 'u', uid: unit, f: 8, start_date: day, end_date: day, li: lines });
    await f.service({ t: 'u', uid: unit, f: 8, start_date: day, end_date: day, manual_cost: '0.7' });
    await f.service({ t: 'd', uid: driver.id, f: 8, start_date: day, end_date: day, manual_cost: '0.3' });
    // Neither rejected nor open services count.
    await f.service({ t: 'u', uid: unit, f: 1, limit_date: f.iso(1), manual_cost: '99' });

    const res = await f.stats(day, day);
    expect(res.status).toBe(200);
    const unitRow = {
      uid: unit,
      mileage: 160.934,
      engine_hours: 0,
      services_cost: 1.2,
      services_count: 2,
      fuel_cost: 50.305,
      fuel_count: 3,
      fuel_volume: 10.3,
      total_cost: 51.505,
      cost_per_km: 0.32, // 51.505 / 160.934 = 0.32004
      consumption: 9.709, // 160.934 km = 99.99975 mi over 10.3 gal
    };
    expect(res.body).toEqual({
      from: day,
      to: day,
      fm: 2,
      mileage: 160.934,
      engine_hours: 0,
      services_cost: 1.5,
      services_count: 3,
      fuel_cost: 50.305,
      fuel_count: 3,
      fuel_volume: 10.3,
      total_cost: 51.805,
      cost_per_km: 0.322, // 51.805 / 160.934 = 0.32190
      consumption: 9.709,
      days: [
        {
          day,
          services_cost: 1.5,
          services_count: 3,
          fuel_cost: 50.305,
          fuel_count: 3,
          fuel_volume: 10.3,
        },
      ],
      units: [unitRow],
    });
    expect(res.body.units.some((r: { uid: number }) => r.uid === idle)).toBe(false);
    const one = await f.unitStats(unit, f.iso(-3), f.iso(0));
    const { uid: _uid, ...figures } = unitRow;
    expect(one.body).toEqual({
      from: f.iso(-3),
      to: f.iso(0),
      fm: 2,
      ...figures,
      days: [
        {
          day,
          services_cost: 1.2,
          services_count: 2,
          fuel_cost: 50.305,
          fuel_count: 3,
          fuel_volume: 10.3,
        },
      ],
    });
    // Back in litres: the gallons convert once per sum (10.3 gal = 38.990 l, + 37.854 l written).
    await db().updateTable('fleets').set({ fm: 1 }).where('id', '=', f.fleetId).execute();
    expect((await f.unitStats(unit, day, day)).body).toMatchObject({ fm: 1, fuel_volume: 38.99 });
  });

  it('counts fuel on the fleet day it was filled, across a daylight-saving change', async () => {
    // Central European time: UTC+1, +2 from the last Sunday of March to the last Sunday of October.
    const tz = 60 | TZ_DST_EUROPE;
    const f = await fleetWith({ tz, ms: 0, fm: 1 });
    const unit = await f.unit();
    // The latest change at least three days ago (the second filling must not lie in the future).
    const lastSunday0100 = (year: number, month: number) => {
      const last = new Date(Date.UTC(year, month + 1, 0));
      return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1) / 1000;
    };
    const year = new Date(now() * 1000).getUTCFullYear();
    const changes = [year - 1, year]
      .flatMap((y) => [lastSunday0100(y, 2), lastSunday0100(y, 9)])
      .filter((c) => c < now() - 3 * DAY);
    const change = changes[changes.length - 1]!;
    const changeDay = startOfDay(tz, change);
    const nextDay = startOfDay(tz, changeDay + 27 * 3600);
    // The local day of the change lasts 23 or 25 hours.
    expect([23, 25]).toContain((nextDay - changeDay) / 3600);
    const [d0, d1] = [localDate(tz, changeDay), localDate(tz, nextDay)];
    // 23:30 and 00:30 local time around the midnight after the change: a fixed offset would count
    // one of them on the wrong day.
    await f.fuel({ uid: unit, date: nextDay - 1800, volume: '1.5', manual_cost: '1.1' });
    await f.fuel({ uid: unit, date: nextDay + 1800, volume: '2.5', manual_cost: '2.2' });
    await f.fuel({ uid: unit, date: `${d1} 00:30`, volume: 1, manual_cost: 1 });
    await f.service({ t: 'u', uid: unit, f: 8, start_date: d0, end_date: d0, manual_cost: '0.4' });

    const first = await f.stats(d0, d0);
    expect(first.body).toMatchObject({ fuel_count: 1, fuel_volume: 1.5, fuel_cost: 1.1, services_cost: 0.4 });
    const second = await f.stats(d1, d1);
    expect(second.body).toMatchObject({ fuel_count: 2, fuel_volume: 3.5, fuel_cost: 3.2, services_cost: 0 });
    const both = await f.stats(localDate(tz, changeDay - 12 * 3600), d1);
    expect(both.body.days).toEqual([
      { day: d0, services_cost: 0.4, services_count: 1, fuel_cost: 1.1, fuel_count: 1, fuel_volume: 1.5 },
      { day: d1, services_cost: 0, services_count: 0, fuel_cost: 3.2, fuel_count: 2, fuel_volume: 3.5 },
    ]);
    expect(both.body).toMatchObject({ fuel_cost: 4.3, services_cost: 0.4, total_cost: 4.7 });

    // The fleet moves to UTC: its fillings move to the days of the new zone (PUT /api/fleets/{id}).
    const moved = await f.client.put(`/api/fleets/${f.fleetId}`, { tz: 0 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const utcDays = (await f.stats(localDate(0, changeDay - 12 * 3600), localDate(0, nextDay + DAY))).body
      .days as { day: string; fuel_count: number }[];
    const expected = new Map<string, number>();
    for (const at of [nextDay - 1800, nextDay + 1800, nextDay + 1800])
      expected.set(localDate(0, at), (expected.get(localDate(0, at)) ?? 0) + 1);
    expect(Object.fromEntries(utcDays.filter((d) => d.fuel_count).map((d) => [d.day, d.fuel_count]))).toEqual(
      Object.fromEntries(expected),
    );
  });

  it('answers a repeated call from memory only until a write or a reading changes the fleet', async () => {
    const f = await fleetWith({ tz: 180, ms: 0, fm: 1 });
    const unit = await f.unit(1000);
    await send(unit, f.dayStart(-1) + 10 * 3600, 1000);
    const [from, to] = [f.iso(-1), f.iso(0)];
    expect((await f.stats(from, to)).body).toMatchObject({ fuel_cost: 0, mileage: 0 });
    expect((await f.stats(from, to)).body).toMatchObject({ fuel_cost: 0, mileage: 0 });
    // A cost write is seen by the next call (the version bumped in its transaction).
    const filling = await f.fuel({ uid: unit, date: f.dayStart(0) + 60, volume: 10, manual_cost: '12.5' });
    expect((await f.stats(from, to)).body).toMatchObject({ fuel_cost: 12.5, fuel_count: 1 });
    await f.client.delete(`/api/fleets/${f.fleetId}/fuel-fillings/${filling.id}`);
    expect((await f.stats(from, to)).body).toMatchObject({ fuel_cost: 0, fuel_count: 0 });
    // A reading moves the live counters: its unit event drops the kept reply (on PostgreSQL the event
    // comes back over LISTEN/NOTIFY, so the call is repeated until it has arrived).
    await send(unit, Math.min(f.dayStart(0) + 3600, now()), 1042);
    let mileage = 0;
    for (let i = 0; i < 50 && mileage !== 42; i++) {
      mileage = (await f.stats(from, to)).body.mileage;
      if (mileage !== 42) await new Promise((r) => setTimeout(r, 20));
    }
    expect(mileage).toBe(42);
  });
});
