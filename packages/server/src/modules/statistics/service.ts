import {
  fromThousandths,
  type StatisticsFleetWire,
  type StatisticsUnitRow,
  type StatisticsUnitWire,
} from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { invalidInput, notFound } from '../../http/errors.js';
import { round3 } from '../fleets/mappers.js';
import { costPerKm, driven, type Period, parsePeriod, periodText } from './rules.js';

/**
 * GET /api/fleets/{id}/statistics and /api/fleets/{id}/units/{uid}/statistics (spec §7 "Fleet"):
 * distance, engine hours and costs of a period (PRODUCT.md "Service objects and counters", "Dashboard").
 *
 * Who may read: the figures are service costs, so the services' read permission applies — viewService,
 * which requires viewInterval (spec §6 "Permission editor groups": Services View requires viewInterval;
 * "Users with viewService get the Services, Reports and Dashboard areas"), as for the archive.
 *
 * Cost: three queries whatever the fleet's size and the period's length — the fleet's units with index
 * seeks into `counter_days`, one grouped query over the closed services with their line items, and
 * (fleet call) the fleet's unit ids; no query per unit.
 */

interface UnitFigures {
  mileage: number;
  engineHours: number;
  /** Integer thousandths. */
  servicesCost: number;
}

/** Closed (not rejected) services: status flags of spec §4, rejected taking precedence (core statusOf). */
const CLOSED = sql<boolean>`(${sql.ref('s.f')} & 24) = 8`;

/**
 * Distance and engine hours of the units of a fleet (or of one unit) over a period, from the daily
 * history, with index seeks on its (unit_id, day) key only, whatever the period's length: per unit
 * the last day up to the period's end (`e`), the last day before its start (`b`) and, when there is
 * none, the first day in it. Distance = e's last − b's last (or that first day's first); a unit whose last
 * day lies before the period drove nothing in it. The unit's latest day (`units.counter_day`) ends at
 * its live counters; all less the unit's corrections (migration 008).
 */
async function periodCounters(ctx: AppContext, fleetId: number, p: Period, unitId?: number) {
  const db = ctx.db.kysely;
  // Only for units with nothing before the period (COALESCE evaluates it only then, in both dialects).
  const firstIn = (
    column: 'first_mileage' | 'first_engine_hours',
    before: 'b.last_mileage' | 'b.last_engine_hours',
  ) => {
    const first = sql`(select ${sql.ref(`x.${column}`)} from counter_days x where x.unit_id = u.id
      and x.day >= ${p.first} and x.day <= ${p.last} order by x.day limit 1)`;
    return sql<number | null>`coalesce(${sql.ref(before)}, ${first})`;
  };
  const live = {
    live_m: sql<number>`u.mileage - u.counter_off_mileage`,
    live_h: sql<number>`u.engine_hours - u.counter_off_engine_hours`,
  };
  const latest = (bound: 'e' | 'b') =>
    db
      .selectFrom('counter_days as x')
      .select(['x.day', 'x.last_mileage', 'x.last_engine_hours'])
      .where('x.unit_id', '=', sql<number>`u.id`)
      .where('x.day', bound === 'e' ? '<=' : '<', bound === 'e' ? p.last : p.first)
      .orderBy('x.day', 'desc')
      .limit(1);
  // PostgreSQL: LATERAL, one index seek per unit (joined on a correlated day it would hash-join a scan
  // of the whole history). SQLite has no LATERAL and joins on the key by seeks anyway.
  const joined = ctx.db.ops.lateralJoins
    ? db
        .selectFrom('units as u')
        .innerJoinLateral(latest('e').as('e'), (j) => j.onTrue())
        .leftJoinLateral(latest('b').as('b'), (j) => j.onTrue())
    : db
        .selectFrom('units as u')
        .innerJoin('counter_days as e', (j) =>
          j.onRef('e.unit_id', '=', 'u.id').on('e.day', '=', latest('e').clearSelect().select('x.day')),
        )
        .leftJoin('counter_days as b', (j) =>
          j.onRef('b.unit_id', '=', 'u.id').on('b.day', '=', latest('b').clearSelect().select('x.day')),
        );
  let query = joined
    .select([
      'u.id',
      'u.counter_day',
      live.live_m.as('live_m'),
      live.live_h.as('live_h'),
      'e.day as end_day',
      'e.last_mileage as end_m',
      'e.last_engine_hours as end_h',
      firstIn('first_mileage', 'b.last_mileage').as('base_m'),
      firstIn('first_engine_hours', 'b.last_engine_hours').as('base_h'),
    ])
    .where('u.fleet_id', '=', fleetId)
    .where('e.day', '>=', p.first);
  if (unitId !== undefined) query = query.where('u.id', '=', unitId);
  const out = new Map<number, { mileage: number; engineHours: number }>();
  for (const r of await query.execute()) {
    const isLive = r.end_day === r.counter_day;
    out.set(r.id, {
      mileage: driven(r.base_m, isLive ? r.live_m : r.end_m),
      engineHours: driven(r.base_h, isLive ? r.live_h : r.end_h),
    });
  }
  return out;
}

/**
 * Total cost (integer thousandths) of the closed services ended in the period, per object: the sum of
 * the line items (quantity × cost, each rounded half away from zero to thousandths, as
 * maintenance-wire.ts `serviceToWire` computes `total_cost`), or the hand-entered total of a service
 * without line items (PRODUCT.md "Services").
 */
async function periodServiceCosts(
  db: Kysely<Database>,
  fleetId: number,
  p: Period,
  unitId?: number,
): Promise<{ type: string; id: number; cost: number }[]> {
  let services = db
    .selectFrom('services as s')
    .where('s.fleet_id', '=', fleetId)
    .where(CLOSED)
    .where('s.end_date', '>=', p.first)
    .where('s.end_date', '<=', p.last);
  if (unitId !== undefined)
    services = services.where('s.object_type', '=', 'u').where('s.object_id', '=', unitId);
  const product = sql<number>`(${sql.ref('qty')} * ${sql.ref('cost')})`;
  const lineTotals = db
    .selectFrom('service_line_items')
    .select([
      'service_id',
      sql<number>`sum(case when ${product} >= 0 then (${product} + 500) / 1000 else -((500 - ${product}) / 1000) end)`.as(
        'total',
      ),
    ])
    .where('service_id', 'in', services.select('s.id'))
    .groupBy('service_id')
    .as('li');
  const rows = await services
    .leftJoin(lineTotals, 'li.service_id', 's.id')
    .select([
      's.object_type',
      's.object_id',
      sql<number>`cast(sum(coalesce(${sql.ref('li.total')}, ${sql.ref('s.manual_cost')}, 0)) as bigint)`.as(
        'cost',
      ),
    ])
    .groupBy(['s.object_type', 's.object_id'])
    .execute();
  return rows.map((r) => ({ type: r.object_type, id: r.object_id, cost: Number(r.cost) }));
}

function figuresToWire(f: UnitFigures): Omit<StatisticsUnitWire, 'from' | 'to'> {
  return {
    mileage: round3(f.mileage),
    engine_hours: round3(f.engineHours),
    services_cost: fromThousandths(f.servicesCost),
    // Fuel fillings come later (PRODUCT.md "Fuel fillings"); the field is kept so the screens need no change.
    fuel_cost: 0,
    cost_per_km: costPerKm(f.servicesCost, f.mileage),
  };
}

async function openPeriod(ctx: AppContext, actor: Actor, fleetId: number, from: string, to: string) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.view');
  const period = parsePeriod(fleet.tz, from, to);
  if (Array.isArray(period)) throw invalidInput(period);
  return { tz: fleet.tz, period };
}

/** GET /api/fleets/{fid}/units/{uid}/statistics?from&to. A unit outside the fleet answers like an unknown one. */
export async function unitStatistics(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  from: string,
  to: string,
): Promise<StatisticsUnitWire> {
  const { tz, period } = await openPeriod(ctx, actor, fleetId, from, to);
  const db = ctx.db.kysely;
  const unit = await db
    .selectFrom('units')
    .select('id')
    .where('id', '=', unitId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!unit) throw notFound('Unit not found');
  const counters = (await periodCounters(ctx, fleetId, period, unitId)).get(unitId);
  const costs = await periodServiceCosts(db, fleetId, period, unitId);
  return {
    ...periodText(tz, period),
    ...figuresToWire({
      mileage: counters?.mileage ?? 0,
      engineHours: counters?.engineHours ?? 0,
      servicesCost: costs.reduce((sum, c) => sum + c.cost, 0),
    }),
  };
}

/**
 * GET /api/fleets/{fid}/statistics?from&to: the fleet's totals — distance and engine hours of its units,
 * the cost of every closed service of the fleet (units, drivers and trailers alike) — and one row per
 * unit of the fleet with any distance, engine time or service cost in the period (others are all zero
 * and left out), ordered by id, for the dashboard's top units.
 */
export async function fleetStatistics(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  from: string,
  to: string,
): Promise<StatisticsFleetWire> {
  const { tz, period } = await openPeriod(ctx, actor, fleetId, from, to);
  const db = ctx.db.kysely;
  const unitIds = (
    await db.selectFrom('units').select('id').where('fleet_id', '=', fleetId).orderBy('id').execute()
  ).map((u) => u.id);
  const counters = await periodCounters(ctx, fleetId, period);
  const costs = await periodServiceCosts(db, fleetId, period);
  const unitCost = new Map<number, number>();
  let servicesCost = 0;
  for (const c of costs) {
    servicesCost += c.cost;
    if (c.type === 'u') unitCost.set(c.id, c.cost);
  }
  let mileage = 0;
  let engineHours = 0;
  const units: StatisticsUnitRow[] = [];
  for (const uid of unitIds) {
    const counter = counters.get(uid);
    const f: UnitFigures = {
      mileage: counter?.mileage ?? 0,
      engineHours: counter?.engineHours ?? 0,
      servicesCost: unitCost.get(uid) ?? 0,
    };
    mileage += f.mileage;
    engineHours += f.engineHours;
    if (f.mileage === 0 && f.engineHours === 0 && f.servicesCost === 0) continue;
    const { fuel_cost: _fuel, ...row } = figuresToWire(f);
    units.push({ uid, ...row });
  }
  return {
    ...periodText(tz, period),
    ...figuresToWire({ mileage, engineHours, servicesCost }),
    units,
  };
}
