import { startOfDay } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { DAY, now } from '../context.js';
import type { Database } from '../db/schema.js';

/**
 * The scan the daily cost aggregates must equal (modules/statistics/cost-days.ts: "aggregates
 * equal to a full scan"): the raw closed services and fuel fillings of a fleet added up per
 * `day:type:id` and per `day:*:0` as [services cost, count, fuel cost, count, litres, gallons] in
 * thousandths, all-zero rows left out. `aggregates` reads cost_days in the same shape.
 */
export async function costScan(db: Kysely<Database>, fleetId: number, tz: number) {
  const out: Record<string, number[]> = {};
  const add = (day: number, type: string, id: number, v: number[]) => {
    for (const key of [`${day}:${type}:${id}`, `${day}:*:0`]) {
      const row = out[key] ?? [0, 0, 0, 0, 0, 0];
      out[key] = row.map((x, i) => x + v[i]!);
    }
  };
  const services = await db.selectFrom('services').selectAll().where('fleet_id', '=', fleetId).execute();
  for (const s of services) {
    if ((s.f & 24) !== 8 || s.end_date === null) continue;
    const lines = await db
      .selectFrom('service_line_items')
      .select(['qty', 'cost'])
      .where('service_id', '=', s.id)
      .execute();
    const total = lines.length
      ? lines.reduce((sum, l) => sum + Math.floor((l.qty * l.cost + 500) / 1000), 0)
      : (s.manual_cost ?? 0);
    add(s.end_date, s.object_type, s.object_id, [total, 1, 0, 0, 0, 0]);
  }
  const fillings = await db.selectFrom('fuel_fillings').selectAll().where('fleet_id', '=', fleetId).execute();
  for (const f of fillings) {
    const gallons = f.volume_unit === 2;
    add(startOfDay(tz, f.filled_at), 'u', f.unit_id, [
      0,
      0,
      f.total_cost,
      1,
      gallons ? 0 : f.volume,
      gallons ? f.volume : 0,
    ]);
  }
  for (const [key, v] of Object.entries(out)) if (v.every((x) => x === 0)) delete out[key];
  return out;
}

/** The cost_days rows of a fleet in the shape of `costScan`. */
export async function costAggregates(db: Kysely<Database>, fleetId: number) {
  const rows = await db.selectFrom('cost_days').selectAll().where('fleet_id', '=', fleetId).execute();
  const out: Record<string, number[]> = {};
  for (const r of rows) {
    const v = [r.services_cost, r.services_count, r.fuel_cost, r.fuel_count, r.fuel_l, r.fuel_gal].map(
      Number,
    );
    if (v.some((x) => x !== 0)) out[`${r.day}:${r.object_type}:${r.object_id}`] = v;
  }
  return out;
}

/**
 * The fleet days of the property tests, in zone `tz`: a day `back` days ago (its start, 06:00 in, so that
 * a daylight-saving night never shifts it), its ISO date, and thousandths as decimal text.
 */
export function fleetDays(tz: number) {
  const today = () => startOfDay(tz, now());
  const dayStart = (back: number) => startOfDay(tz, today() - back * DAY + 6 * 3600);
  const iso = (back: number) => new Date((dayStart(back) + 12 * 3600) * 1000).toISOString().slice(0, 10);
  const dec = (thousandths: number) => (thousandths / 1000).toFixed(3);
  return { today, dayStart, iso, dec };
}
