import { localDate } from '@fleetkeep/core';
import { sql } from 'kysely';
import { bucketOf, type Ctx, costDays, nameOf, type Row } from './shared.js';

/**
 * Costs, fuel and distance per unit and bucket (the fuel and cost-per-distance reports are made of them).
 */

/** Distance driven (km) and engine hours run in one bucket. */
interface Run {
  km: number;
  hours: number;
}

/**
 * Distance driven and engine hours run per unit and bucket, from the daily counter history as the
 * statistics read it (modules/statistics/service.ts `periodCounters`): each day's last counter (the
 * unit's live counter on its latest day) less the one before it — the last day before the period, else
 * the first value of the period's first day — never negative, added to the day's bucket. Engine hours
 * give the per-hour consumption of units counting hours (docs/product.md "Consumption of machines").
 */
async function unitRuns(c: Ctx, unitIds: number[]): Promise<Map<number, Map<string | null, Run>>> {
  const out = new Map<number, Map<string | null, Run>>();
  if (unitIds.length === 0) return out;
  for (let i = 0; i < unitIds.length; i += 1000) {
    const part = unitIds.slice(i, i + 1000);
    const units = await c.db
      .selectFrom('units')
      .select([
        'id',
        'counter_day',
        sql<number>`mileage - counter_off_mileage`.as('live_m'),
        sql<number>`engine_hours - counter_off_engine_hours`.as('live_h'),
      ])
      .where('fleet_id', '=', c.fleet.id)
      .where('id', 'in', part)
      .execute();
    const live = new Map(
      units.map((u) => [u.id, { day: u.counter_day, km: Number(u.live_m), hours: Number(u.live_h) }]),
    );
    const ids = units.map((u) => u.id);
    if (ids.length === 0) continue;
    const latestBefore = c.db
      .selectFrom('counter_days')
      .select(['unit_id', sql<number>`max(day)`.as('day')])
      .where('unit_id', 'in', ids)
      .where('day', '<', c.period.first)
      .groupBy('unit_id')
      .as('m');
    const bases = await c.db
      .selectFrom('counter_days as x')
      .innerJoin(latestBefore, (j) => j.onRef('m.unit_id', '=', 'x.unit_id').onRef('m.day', '=', 'x.day'))
      .select(['x.unit_id', 'x.last_mileage', 'x.last_engine_hours'])
      .execute();
    const base = new Map(
      bases.map((b) => [b.unit_id, { km: Number(b.last_mileage), hours: Number(b.last_engine_hours) }]),
    );
    const days = await c.db
      .selectFrom('counter_days')
      .select(['unit_id', 'day', 'first_mileage', 'last_mileage', 'first_engine_hours', 'last_engine_hours'])
      .where('unit_id', 'in', ids)
      .where('day', '>=', c.period.first)
      .where('day', '<=', c.period.last)
      .orderBy('unit_id')
      .orderBy('day')
      .execute();
    let unit = -1;
    let prev = { km: 0, hours: 0 };
    for (const d of days) {
      if (d.unit_id !== unit) {
        unit = d.unit_id;
        prev = base.get(unit) ?? { km: Number(d.first_mileage), hours: Number(d.first_engine_hours) };
      }
      const l = live.get(unit);
      const today = l && Number(l.day) === Number(d.day);
      const end = {
        km: today ? l.km : Number(d.last_mileage),
        hours: today ? l.hours : Number(d.last_engine_hours),
      };
      const km = Math.max(end.km - prev.km, 0);
      const hours = Math.max(end.hours - prev.hours, 0);
      prev = end;
      if (km === 0 && hours === 0) continue;
      const bucket = bucketOf(c, localDate(c.fleet.tz, Number(d.day)));
      let byBucket = out.get(unit);
      if (!byBucket) {
        byBucket = new Map();
        out.set(unit, byBucket);
      }
      const run = byBucket.get(bucket) ?? { km: 0, hours: 0 };
      run.km += km;
      run.hours += hours;
      byBucket.set(bucket, run);
    }
  }
  return out;
}

/** The units of the filter (fuel and distance belong to units). */
async function filterUnits(c: Ctx): Promise<number[]> {
  if (c.objects.ot && c.objects.ot !== 'u') return [];
  return [...c.names.keys()].filter((k) => k.startsWith('u:')).map((k) => Number(k.slice(2)));
}

export interface UnitFigures {
  period: string | null;
  uid: number;
  servicesCost: number;
  fuelCost: number;
  fuelCount: number;
  volume: number;
  km: number;
  /** Engine hours run. */
  hours: number;
}

/** Costs, fuel and distance per unit and bucket (only units with any of them). */
export async function unitFigures(c: Ctx): Promise<UnitFigures[]> {
  const units = await filterUnits(c);
  if (units.length === 0) return [];
  const inFleet = new Set(units);
  const map = new Map<string, UnitFigures>();
  const at = (period: string | null, uid: number) => {
    const key = `${period}|${uid}`;
    let f = map.get(key);
    if (!f) {
      f = { period, uid, servicesCost: 0, fuelCost: 0, fuelCount: 0, volume: 0, km: 0, hours: 0 };
      map.set(key, f);
    }
    return f;
  };
  for (const r of await costDays(c, true)) {
    if (!inFleet.has(r.oid)) continue;
    const f = at(bucketOf(c, localDate(c.fleet.tz, r.day)), r.oid);
    f.servicesCost += r.servicesCost;
    f.fuelCost += r.fuelCost;
    f.fuelCount += r.fuelCount;
    f.volume += r.volume;
  }
  for (const [uid, byBucket] of await unitRuns(c, units))
    for (const [period, run] of byBucket) {
      const f = at(period, uid);
      f.km += run.km;
      f.hours += run.hours;
    }
  return [...map.values()];
}

/** A report row of one unit's figures in a bucket, named and sorted by the unit; `values` beside its name. */
export function unitRow(c: Ctx, f: UnitFigures, values: Record<string, Row['values'][string]>): Row {
  const object = nameOf(c, 'u', f.uid);
  return {
    period: f.period,
    label: object,
    sort: `${object}\u0000${f.uid}`,
    ot: 'u',
    oid: f.uid,
    values: { object, ...values },
  };
}
