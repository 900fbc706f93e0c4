import { startOfDay } from '@fleetkeep/core';
import type { Transaction } from 'kysely';
import { DAY } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { type CounterDay, dayEnd } from './counter-days.js';

/** Days of counter history the demo seed writes, ending today (cost per km on the unit page and dashboard). */
export const DEMO_HISTORY_DAYS = 90;
const SEED_CHUNK = 2500;

export interface HistoryUnit {
  id: number;
  mileage: number;
  engineHours: number;
}

/** A small deterministic generator (mulberry32), so that every demo looks the same. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Plausible daily counters of the last `days` fleet days ending at each unit's current counters: a
 * working-day average drawn from the unit's totals (as if gathered over about four years), less on
 * weekends, some idle days. Today's row starts and ends at the current counters, so live readings
 * continue it. Pure: rows are returned, oldest first.
 */
export function demoCounterHistory(
  units: HistoryUnit[],
  tz: number,
  at: number,
  days = DEMO_HISTORY_DAYS,
): CounterDay[] {
  const today = startOfDay(tz, at);
  const rows: CounterDay[] = [];
  for (const unit of units) {
    const next = random(unit.id * 7919);
    const kmPerDay = unit.mileage / (4 * 365);
    const hoursPerDay = unit.engineHours / (4 * 365);
    let mileage = unit.mileage;
    let hours = unit.engineHours;
    const own: CounterDay[] = [
      {
        unit_id: unit.id,
        day: today,
        first_mileage: mileage,
        last_mileage: mileage,
        first_engine_hours: hours,
        last_engine_hours: hours,
      },
    ];
    for (let back = 1; back < days; back++) {
      // Six hours into the day is inside it whatever the daylight-saving shift.
      const day = startOfDay(tz, today - back * DAY + 6 * 3600);
      const weekday = new Date(day * 1000 + 12 * 3600_000).getUTCDay();
      const share = next() < 0.1 ? 0 : (weekday === 0 || weekday === 6 ? 0.4 : 1.15) * (0.6 + 0.8 * next());
      const km = Math.min(Math.round(kmPerDay * share * 10) / 10, mileage);
      const h = Math.min(Math.round(hoursPerDay * share * 100) / 100, hours);
      own.push({
        unit_id: unit.id,
        day,
        first_mileage: mileage - km,
        last_mileage: mileage,
        first_engine_hours: hours - h,
        last_engine_hours: hours,
      });
      mileage -= km;
      hours -= h;
    }
    rows.push(...own.reverse());
  }
  return rows;
}

/** Writes the demo history of a fleet's units in the seed's transaction (demo/seed.ts). */
export async function seedCounterHistory(
  trx: Transaction<Database>,
  fleetId: number,
  at: number,
  days = DEMO_HISTORY_DAYS,
) {
  const { tz } = await trx
    .selectFrom('fleets')
    .select('tz')
    .where('id', '=', fleetId)
    .executeTakeFirstOrThrow();
  const units = await trx
    .selectFrom('units')
    .select(['id', 'mileage', 'engine_hours'])
    .where('fleet_id', '=', fleetId)
    .execute();
  const rows = demoCounterHistory(
    units.map((u) => ({ id: u.id, mileage: u.mileage, engineHours: u.engine_hours })),
    tz,
    at,
    days,
  );
  // 25 demo units × 90 (or 365) days in statements of SEED_CHUNK rows (6 values a row: within both
  // dialects' parameter limits).
  for (let i = 0; i < rows.length; i += SEED_CHUNK)
    await trx
      .insertInto('counter_days')
      .values(rows.slice(i, i + SEED_CHUNK))
      .execute();
  // Today's row is the latest: its last counters are the units' live ones (migration 008).
  await trx
    .updateTable('units')
    .set({ counter_day: startOfDay(tz, at), counter_day_end: dayEnd(tz, startOfDay(tz, at)) })
    .where('fleet_id', '=', fleetId)
    .execute();
}
