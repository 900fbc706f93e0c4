import { ServiceFlag, startOfDay } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../context.js';
import { costAggregates, costScan } from '../test/cost-scan.js';
import { type Client, DEMO_PASSWORD, startTestServer, type TestServer } from '../test/harness.js';
import { DEMO_INTERVALS, DEMO_LIBRARY } from './catalog.js';
import { DEMO_FULL_HISTORY_DAYS, type DemoIds, seedDemo } from './seed.js';

/**
 * The full demo of `npm start`: library, a dozen intervals, services Due,
 * overdue by each kind and In progress right after seeding, a year of closed history, fuel fillings,
 * statistics equal to a scan of the rows, the outsider's fleet apart, and the same demo every time.
 */
describe('demo maintenance seed', () => {
  let t: TestServer;
  let second: TestServer;
  let ids: DemoIds;
  let secondIds: DemoIds;
  let manager: Client;
  let outsider: Client;
  const tz = 180;

  const iso = (back: number) => {
    const d = new Date((startOfDay(tz, now()) - back * DAY + 12 * 3600 + tz * 60) * 1000);
    return d.toISOString().slice(0, 10);
  };

  beforeAll(async () => {
    t = await startTestServer({ demo: false });
    ids = await seedDemo(t.server.ctx, DEMO_PASSWORD, { maintenance: true });
    manager = await t.login('manager');
    outsider = await t.login('outsider');
    second = await startTestServer({ demo: false });
    secondIds = await seedDemo(second.server.ctx, DEMO_PASSWORD, { maintenance: true });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await second?.close();
  });

  it('gives the demo fleet a library and a dozen intervals assigned to units, drivers and trailers', async () => {
    const items = await manager.get(`/api/fleets/${ids.fleetId}/line_items`);
    expect(items.status).toBe(200);
    const names = items.body.line_items.map((i: { n: string }) => i.n);
    for (const item of DEMO_LIBRARY) expect(names).toContain(item.n);
    const intervals = await manager.get(`/api/fleets/${ids.fleetId}/intervals`);
    expect(intervals.status).toBe(200);
    expect(intervals.body.intervals).toHaveLength(DEMO_INTERVALS.length);
    const types = new Set(
      intervals.body.intervals.flatMap((i: { u: { t: string }[] }) => i.u.map((a) => a.t)),
    );
    expect([...types].sort()).toEqual(['d', 't', 'u']);
  });

  it('has services Due, overdue by mileage, engine hours and days, and In progress right after seeding', async () => {
    const res = await manager.get(`/api/fleets/${ids.fleetId}/services`);
    expect(res.status).toBe(200);
    const flags: number[] = res.body.services.map((s: { f: number }) => s.f);
    const due = flags.filter((f) => f & ServiceFlag.upcoming);
    expect(due.some((f) => !(f & ServiceFlag.overdue))).toBe(true);
    expect(due.some((f) => f & ServiceFlag.overdueByMileage)).toBe(true);
    expect(due.some((f) => f & ServiceFlag.overdueByEngineHours)).toBe(true);
    expect(due.some((f) => f & ServiceFlag.overdueByDays)).toBe(true);
    expect(flags.filter((f) => f & ServiceFlag.inProgress).length).toBeGreaterThanOrEqual(2);
    // The engine made them from the intervals (no creator), besides the one repair under way.
    expect(res.body.services.filter((s: { cid: number | null }) => s.cid === null).length).toBeGreaterThan(5);
  });

  it('has closed services over the last year and some rejected, with line items', async () => {
    const res = await manager.get(
      `/api/fleets/${ids.fleetId}/services/archived?from=${iso(364)}&to=${iso(0)}`,
    );
    expect(res.status).toBe(200);
    const services: { f: number; end_date: unknown; li: unknown[]; total_cost: number }[] = res.body.services;
    const closed = services.filter((s) => s.f & ServiceFlag.closed);
    expect(closed.length).toBeGreaterThan(60);
    expect(services.filter((s) => s.f & ServiceFlag.rejected).length).toBeGreaterThanOrEqual(3);
    expect(closed.every((s) => s.li.length > 0 && s.total_cost > 0)).toBe(true);
    const recent = await manager.get(
      `/api/fleets/${ids.fleetId}/services/archived?from=${iso(89)}&to=${iso(0)}`,
    );
    expect(
      recent.body.services.filter((s: { f: number }) => s.f & ServiceFlag.closed).length,
    ).toBeGreaterThan(20);
  });

  it('has fuel fillings every few days for the units, some partial', async () => {
    const res = await manager.get(`/api/fleets/${ids.fleetId}/fuel-fillings?from=${iso(89)}&to=${iso(0)}`);
    expect(res.status).toBe(200);
    const fillings: { uid: number; full: number }[] = res.body.fuel_fillings;
    expect(new Set(fillings.map((f) => f.uid)).size).toBe(25);
    expect(fillings.length).toBeGreaterThan(25 * 15);
    expect(fillings.some((f) => f.full === 0)).toBe(true);
  });

  it('gives meaningful statistics that equal a scan of the rows', async () => {
    const res = await manager.get(`/api/fleets/${ids.fleetId}/statistics?from=${iso(89)}&to=${iso(0)}`);
    expect(res.status).toBe(200);
    expect(res.body.services_cost).toBeGreaterThan(0);
    expect(res.body.fuel_cost).toBeGreaterThan(0);
    expect(res.body.consumption).not.toBeNull();
    expect(res.body.consumption).toBeGreaterThan(5);
    expect(res.body.consumption).toBeLessThan(40);
    expect(res.body.cost_per_km).not.toBeNull();
    const db = t.server.ctx.db.kysely;
    for (const [fleetId, fleetTz] of [
      [ids.fleetId, tz],
      [ids.otherFleetId, tz],
    ] as const) {
      const expected = await costScan(db, fleetId, fleetTz);
      expect(Object.keys(expected).length).toBeGreaterThan(10);
      expect(await costAggregates(db, fleetId)).toEqual(expected);
    }
    // The year of history is in the figures too.
    const year = await manager.get(
      `/api/fleets/${ids.fleetId}/statistics?from=${iso(DEMO_FULL_HISTORY_DAYS - 1)}&to=${iso(0)}`,
    );
    expect(year.body.services_count).toBeGreaterThan(res.body.services_count);
    expect(year.body.mileage).toBeGreaterThan(res.body.mileage);
  });

  it("keeps the fleets apart: the outsider has its own few records and sees none of the demo fleet's", async () => {
    const own = await outsider.get(
      `/api/fleets/${ids.otherFleetId}/fuel-fillings?from=${iso(89)}&to=${iso(0)}`,
    );
    expect(own.status).toBe(200);
    expect(own.body.fuel_fillings.length).toBeGreaterThan(0);
    const archived = await outsider.get(
      `/api/fleets/${ids.otherFleetId}/services/archived?from=${iso(89)}&to=${iso(0)}`,
    );
    expect(archived.body.services.length).toBeGreaterThan(0);
    const otherUnits = new Set(
      (
        await t.server.ctx.db.kysely
          .selectFrom('units')
          .select('id')
          .where('fleet_id', '=', ids.otherFleetId)
          .execute()
      ).map((u) => u.id),
    );
    expect(own.body.fuel_fillings.every((f: { uid: number }) => otherUnits.has(f.uid))).toBe(true);
    expect(archived.body.services.every((s: { uid: number }) => otherUnits.has(s.uid))).toBe(true);
    for (const path of [
      'services',
      'intervals',
      'line_items',
      `fuel-fillings?from=${iso(89)}&to=${iso(0)}`,
    ]) {
      const res = await outsider.get(`/api/fleets/${ids.fleetId}/${path}`);
      expect(res.status).toBe(403);
    }
    // And the demo manager does not see the outsider's fleet.
    const theirs = await manager.get(`/api/fleets/${ids.otherFleetId}/services`);
    expect(theirs.status).toBe(403);
  });

  it('seeds the same demo every time', async () => {
    const db = t.server.ctx.db.kysely;
    const db2 = second.server.ctx.db.kysely;
    const read = async (d: typeof db, fleetId: number) => ({
      services: (
        await d
          .selectFrom('services')
          .select(['name', 'object_id', 'f', 'end_date', 'mileage'])
          .where('fleet_id', '=', fleetId)
          .orderBy('id')
          .execute()
      ).map((s) => ({ ...s, f: s.f & ~(ServiceFlag.overdue | 0x700) })),
      lines: await d
        .selectFrom('service_line_items')
        .innerJoin('services', 'services.id', 'service_line_items.service_id')
        .select(['service_line_items.name', 'service_line_items.qty', 'service_line_items.cost'])
        .where('services.fleet_id', '=', fleetId)
        .orderBy('service_line_items.id')
        .execute(),
      fuel: await d
        .selectFrom('fuel_fillings')
        .select(['unit_id', 'volume', 'price', 'total_cost', 'full_tank'])
        .where('fleet_id', '=', fleetId)
        .orderBy('id')
        .execute(),
    });
    const a = await read(db, ids.fleetId);
    const b = await read(db2, secondIds.fleetId);
    expect(a.services.length).toBeGreaterThan(60);
    expect(b).toEqual(a);
  });
});
