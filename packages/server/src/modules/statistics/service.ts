import {
  FuelMeasure,
  localDate,
  type StatisticsDay,
  type StatisticsFleetWire,
  type StatisticsUnitWire,
} from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import { RUNNING_FIGURES } from '../../db/migrations/021_cost_running_totals.js';
import type { Database, FleetRow } from '../../db/schema.js';
import { invalidInput, notFound } from '../../http/errors.js';
import { type Patch, StatisticsCache } from './cache.js';
import type { RunningTables } from './cost-days.js';
import { decimalOf, driven, type Period, parsePeriod, periodText } from './rules.js';
import {
  type CostSums,
  figuresToWire,
  NO_COSTS,
  type UnitFigures,
  type Units,
  unitRowJson,
  volumeIn,
} from './wire.js';

/**
 * GET /api/fleets/{id}/statistics and /api/fleets/{id}/units/{uid}/statistics (spec §7 "Fleet"):
 * distance, engine hours, costs and fuel of a period (PRODUCT.md "Service objects and counters",
 * "Dashboard").
 *
 * Who may read: the figures are service costs, so the services' read permission applies — viewService,
 * which requires viewInterval (spec §6 "Permission editor groups": Services View requires viewInterval;
 * "Users with viewService get the Services, Reports and Dashboard areas"), as for the archive.
 *
 * Read from the daily aggregates only, never from services or fuel fillings: distance and engine hours
 * from `counter_days` with index seeks per unit, costs and fuel per unit from the running totals of
 * `cost_days` (migration 021, kept exact on write by cost-days.ts) with two index seeks per unit, the
 * fleet's days from one range of its `*` rows. A reply is kept in memory (cache.ts) while the fleet's
 * statistics version, bumped by every cost write in its transaction, and its units are unchanged; after
 * a change, only the units the writes and unit events named are read again and patched into it.
 */

/**
 * Distance and engine hours of the units of a fleet (or of one unit) over a period, from the daily
 * history, with index seeks on its (unit_id, day) key only, whatever the period's length: per unit
 * the last day up to the period's end (`e`), the last day before its start (`b`) and, when there is
 * none, the first day in it. Distance = e's last − b's last (or that first day's first); a unit whose last
 * day lies before the period drove nothing in it. The unit's latest day (`units.counter_day`) ends at
 * its live counters; all less the unit's corrections (migration 008).
 */
async function periodCounters(ctx: AppContext, fleetId: number, p: Period, unitIds?: readonly number[]) {
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
  if (unitIds !== undefined) {
    if (unitIds.length === 0) return new Map<number, { mileage: number; engineHours: number }>();
    query = query.where('u.id', 'in', unitIds);
  }
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

/** Figures of `cost_days` rows as read: PostgreSQL answers bigint as text. */
interface SumRow {
  services_cost: number | string | null;
  services_count: number | string | null;
  fuel_cost: number | string | null;
  fuel_count: number | string | null;
  fuel_l: number | string | null;
  fuel_gal: number | string | null;
}

const costsOf = (r: SumRow): CostSums => ({
  servicesCost: Number(r.services_cost ?? 0),
  servicesCount: Number(r.services_count ?? 0),
  fuelCost: Number(r.fuel_cost ?? 0),
  fuelCount: Number(r.fuel_count ?? 0),
  fuelL: Number(r.fuel_l ?? 0),
  fuelGal: Number(r.fuel_gal ?? 0),
});

function addCosts(a: CostSums, b: CostSums): CostSums {
  return {
    servicesCost: a.servicesCost + b.servicesCost,
    servicesCount: a.servicesCount + b.servicesCount,
    fuelCost: a.fuelCost + b.fuelCost,
    fuelCount: a.fuelCount + b.fuelCount,
    fuelL: a.fuelL + b.fuelL,
    fuelGal: a.fuelGal + b.fuelGal,
  };
}

/**
 * The days of an object (`u` and a unit id) or of the whole fleet (`*`, 0) in a period, in order:
 * at most one row per day, read on the key.
 */
async function periodDays(
  db: Kysely<Database>,
  fleetId: number,
  p: Period,
  objectType: string,
  objectId: number,
): Promise<{ day: number; costs: CostSums }[]> {
  const rows = await db
    .selectFrom('cost_days')
    .select(['day', 'services_cost', 'services_count', 'fuel_cost', 'fuel_count', 'fuel_l', 'fuel_gal'])
    .where('object_type', '=', objectType)
    .where('object_id', '=', objectId)
    .where('fleet_id', '=', fleetId)
    .where('day', '>=', p.first)
    .where('day', '<=', p.last)
    .orderBy('day')
    .execute();
  return rows
    .map((r) => ({ day: Number(r.day), costs: costsOf(r) }))
    .filter((d) => d.costs.servicesCount !== 0 || d.costs.fuelCount !== 0 || d.costs.servicesCost !== 0);
}

/**
 * Every unit of the fleet (or those of `unitIds` in it), in id order, with what its `cost_days` rows of
 * the period add up to: the running totals (migration 021) of its last row up to the period's end less
 * those of its last row before the period's start — per unit two index seeks on the key, whatever the
 * period's length (no range of rows per request).
 */
async function periodUnitCosts(
  ctx: AppContext,
  fleetId: number,
  p: Period,
  unitIds?: readonly number[],
): Promise<{ id: number; costs: CostSums }[]> {
  if (unitIds?.length === 0) return [];
  const db = ctx.db.kysely.withTables<RunningTables>();
  const latest = (op: '<=' | '<', day: number) =>
    db
      .selectFrom('cost_days as x')
      .where('x.fleet_id', '=', fleetId)
      .where('x.object_type', '=', 'u')
      .where('x.object_id', '=', sql<number>`u.id`)
      .where('x.day', op, day)
      .orderBy('x.day', 'desc')
      .limit(1);
  const runs = RUNNING_FIGURES.map((f) => `x.run_${f}` as const);
  // PostgreSQL: LATERAL, one index seek per unit and bound. SQLite has no LATERAL: it joins the row of
  // the day found by the correlated seek (LEFT JOINs keep the units the outer loop, as the key has to).
  const joined = ctx.db.ops.lateralJoins
    ? db
        .selectFrom('units as u')
        .leftJoinLateral(latest('<=', p.last).select(runs).as('e'), (j) => j.onTrue())
        .leftJoinLateral(latest('<', p.first).select(runs).as('b'), (j) => j.onTrue())
    : db
        .selectFrom('units as u')
        .leftJoin('cost_days as e', (j) =>
          j
            .on('e.fleet_id', '=', fleetId)
            .on('e.object_type', '=', 'u')
            .onRef('e.object_id', '=', 'u.id')
            .on('e.day', '=', latest('<=', p.last).select('x.day')),
        )
        .leftJoin('cost_days as b', (j) =>
          j
            .on('b.fleet_id', '=', fleetId)
            .on('b.object_type', '=', 'u')
            .onRef('b.object_id', '=', 'u.id')
            .on('b.day', '=', latest('<', p.first).select('x.day')),
        );
  const difference = (f: (typeof RUNNING_FIGURES)[number]) =>
    sql<number | string | null>`${sql.ref(`e.run_${f}`)} - coalesce(${sql.ref(`b.run_${f}`)}, 0)`.as(f);
  let query = joined
    .select(['u.id', ...RUNNING_FIGURES.map(difference)])
    .where('u.fleet_id', '=', fleetId)
    .orderBy('u.id');
  if (unitIds !== undefined) query = query.where('u.id', 'in', unitIds);
  const rows = await query.execute();
  return rows.map((r) => ({ id: r.id, costs: costsOf(r) }));
}

function dayToWire(tz: number, fm: number, d: { day: number; costs: CostSums }): StatisticsDay {
  return {
    day: localDate(tz, d.day),
    services_cost: decimalOf(d.costs.servicesCost),
    services_count: d.costs.servicesCount,
    fuel_cost: decimalOf(d.costs.fuelCost),
    fuel_count: d.costs.fuelCount,
    fuel_volume: decimalOf(volumeIn(d.costs, fm)),
  };
}

async function openPeriod(ctx: AppContext, actor: Actor, fleetId: number, from: string, to: string) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.view');
  const period = parsePeriod(fleet.tz, from, to);
  if (Array.isArray(period)) throw invalidInput(period);
  return { fleet, period };
}

const unitsOf = (fleet: FleetRow): Units => ({
  fm: fleet.fm === FuelMeasure.gallon ? FuelMeasure.gallon : FuelMeasure.liter,
  ms: fleet.ms,
});

/** GET /api/fleets/{fid}/units/{uid}/statistics?from&to. A unit outside the fleet answers like an unknown one. */
export async function unitStatistics(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  from: string,
  to: string,
): Promise<StatisticsUnitWire> {
  const { fleet, period } = await openPeriod(ctx, actor, fleetId, from, to);
  const db = ctx.db.kysely;
  const unit = await db
    .selectFrom('units')
    .select('id')
    .where('id', '=', unitId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!unit) throw notFound('Unit not found');
  const counters = (await periodCounters(ctx, fleetId, period, [unitId])).get(unitId);
  const days = await periodDays(db, fleetId, period, 'u', unitId);
  const u = unitsOf(fleet);
  return {
    ...periodText(fleet.tz, period),
    fm: u.fm,
    ...figuresToWire(
      {
        mileage: counters?.mileage ?? 0,
        engineHours: counters?.engineHours ?? 0,
        ...days.reduce((sum, d) => addCosts(sum, d.costs), NO_COSTS),
      },
      u,
    ),
    days: days.map((d) => dayToWire(fleet.tz, u.fm, d)),
  };
}

/**
 * A fleet's reply for one period as the statistics cache keeps it: the JSON bytes, and what a patch
 * needs to compute them again when some units changed — every unit of the fleet in id order, its
 * figures and its row of the reply as JSON (null for a unit left out, all zero), and the rows joined
 * per block of `BLOCK` units, so that a patch joins again only the blocks of the units it changed.
 */
interface FleetSnapshot {
  bytes: Buffer;
  ids: number[];
  figures: UnitFigures[];
  rows: (string | null)[];
  blocks: Buffer[];
}

/** Units per block of joined rows (cache.ts patches re-join a block of a changed unit). */
const BLOCK = 128;

function blockOf(rows: readonly (string | null)[], k: number): Buffer {
  const part: string[] = [];
  for (let i = k * BLOCK; i < Math.min(rows.length, (k + 1) * BLOCK); i++) {
    const row = rows[i];
    if (row) part.push(row);
  }
  return Buffer.from(part.join(','));
}

/** First index of `ids` (ascending) holding `id` or more. */
function indexOf(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const COMMA = Buffer.from(',');

/**
 * GET /api/fleets/{fid}/statistics?from&to: the fleet's totals — distance and engine hours of its units,
 * the costs of every closed service (units, drivers and trailers alike) and fuel filling of the fleet —
 * its days, and one row per unit of the fleet with any distance, engine time, service or filling in the
 * period (others are all zero and left out), ordered by id, for the dashboard's top units.
 *
 * Answers the reply as JSON bytes: with 10,000 units it is 2 MB, and serialising (and encoding) it
 * again for every request would cost more than everything else a cached reply needs (cache.ts). When
 * the fleet changed since a reply was kept, only the units that changed are read again (`patch`).
 */
export async function fleetStatistics(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  from: string,
  to: string,
): Promise<Buffer> {
  const { fleet, period } = await openPeriod(ctx, actor, fleetId, from, to);
  const u = unitsOf(fleet);
  const cache = StatisticsCache.of(ctx);
  const key = `${fleetId}:${period.first}:${period.last}:${fleet.tz}:${u.fm}:${u.ms}`;
  const snapshot = await cache.read<FleetSnapshot>(fleetId, key, (patch) =>
    computeFleet(ctx, fleet, period, u, patch),
  );
  return snapshot.bytes;
}

/**
 * The fleet's reply: every unit's figures from the aggregates (one query per figure for the whole
 * fleet), or, with `patch`, those of the changed units only, on top of the previous reply's.
 */
export async function computeFleet(
  ctx: AppContext,
  fleet: FleetRow,
  period: Period,
  u: Units,
  patch: Patch<FleetSnapshot> | null = null,
): Promise<FleetSnapshot> {
  const db = ctx.db.kysely;
  const fleetId = fleet.id;
  const only = patch ? [...patch.units].sort((a, b) => a - b) : undefined;
  // The members of the fleet (of `only`), in id order, with their costs.
  const [memberRows, counters, days] = [
    await periodUnitCosts(ctx, fleetId, period, only),
    await periodCounters(ctx, fleetId, period, only),
    await periodDays(db, fleetId, period, '*', 0),
  ];
  const previous = patch?.previous;
  let ids: number[];
  let figures: UnitFigures[];
  let rows: (string | null)[];
  /** Blocks to join again; null: all of them. */
  let dirty: Set<number> | null = null;
  if (previous && only) {
    const present = new Set(memberRows.map((r) => r.id));
    const known = (id: number) => previous.ids[indexOf(previous.ids, id)] === id;
    const left = only.filter((id) => !present.has(id) && known(id));
    const joined = memberRows.filter((r) => !known(r.id)).map((r) => r.id);
    if (left.length || joined.length) {
      // The fleet's units changed: the rows move, every block is joined again.
      const gone = new Set(left);
      const at = new Map(previous.ids.map((id, i) => [id, i]));
      ids = [...previous.ids.filter((id) => !gone.has(id)), ...joined].sort((a, b) => a - b);
      figures = ids.map(
        (id) => previous.figures[at.get(id) ?? -1] ?? { mileage: 0, engineHours: 0, ...NO_COSTS },
      );
      rows = ids.map((id) => previous.rows[at.get(id) ?? -1] ?? null);
    } else {
      ids = previous.ids;
      figures = previous.figures.slice();
      rows = previous.rows.slice();
      dirty = new Set();
    }
  } else {
    ids = memberRows.map((r) => r.id);
    figures = new Array(ids.length);
    rows = new Array(ids.length);
  }
  for (const { id, costs } of memberRows) {
    const i = indexOf(ids, id);
    const counter = counters.get(id);
    const f: UnitFigures = {
      mileage: counter?.mileage ?? 0,
      engineHours: counter?.engineHours ?? 0,
      ...costs,
    };
    figures[i] = f;
    const idle =
      f.mileage === 0 &&
      f.engineHours === 0 &&
      costs.servicesCount === 0 &&
      costs.fuelCount === 0 &&
      costs.servicesCost === 0;
    rows[i] = idle ? null : unitRowJson(id, f, u);
    dirty?.add(Math.floor(i / BLOCK));
  }
  const blocks = Array.from({ length: Math.ceil(ids.length / BLOCK) }, (_, k) =>
    dirty && !dirty.has(k) ? (previous as FleetSnapshot).blocks[k]! : blockOf(rows, k),
  );
  // Totals in id order, as a computation of the whole fleet adds them.
  let mileage = 0;
  let engineHours = 0;
  for (const f of figures) {
    mileage += f.mileage;
    engineHours += f.engineHours;
  }
  const head: Omit<StatisticsFleetWire, 'units'> = {
    ...periodText(fleet.tz, period),
    fm: u.fm,
    ...figuresToWire(
      { mileage, engineHours, ...days.reduce((sum, d) => addCosts(sum, d.costs), NO_COSTS) },
      u,
    ),
    days: days.map((d) => dayToWire(fleet.tz, u.fm, d)),
  };
  // `units` last: the reply is the head's JSON with the rows' array appended.
  const parts: Buffer[] = [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"units":[`)];
  for (const b of blocks) {
    if (b.length === 0) continue;
    if (parts.length > 1) parts.push(COMMA);
    parts.push(b);
  }
  parts.push(Buffer.from(']}'));
  return { bytes: Buffer.concat(parts), ids, figures, rows, blocks };
}
