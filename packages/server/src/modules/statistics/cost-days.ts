import { type FuelFigures, FuelMeasure, startOfDay } from '@fleetkeep/core';
import { type Generated, type Kysely, sql } from 'kysely';
import { RUNNING_FIGURES } from '../../db/migrations/021_cost_running_totals.js';
import type { CostDayTable, Database } from '../../db/schema.js';

/**
 * Keeps the daily cost aggregates (`cost_days`, migration 012) exact on write (
 * "daily aggregates kept up to date on write ... the same numbers as a scan"). Every write that changes
 * what a closed service or a fuel filling adds up to calls `applyCostDelta(trx, before, after)` in its
 * own transaction, with the contribution the row had and the one it has now:
 *
 * - services (modules/services write.ts, archive.ts; modules/fleets objects-admin.ts): `trackServices`
 *   reads the contributions of the services a write touches before it and again after it;
 * - fuel fillings (modules/fuel write.ts): `fuelContribution` of the figures its domain events carry.
 *
 * Each delta is added to the object's row and to the fleet's (`*`, 0) row of its day, the object's
 * running totals (migration 021: `run_*`, what its rows add up to up to each day) are computed again from
 * that day on, and the write bumps the fleet's `statistics_versions` row (the statistics cache's key,
 * service.ts), logging the units it moved under the version reached (`statistics_unit_changes`,
 * migration 018: what a kept reply recomputes). Every writer of `cost_days` goes through
 * `applyCostDelta`: services, archive, object removal, fuel, fleet transfer, imports (through the
 * services and fuel batch writers), the demo, a fleet's zone change.
 */

/** What one row adds to one fleet day of one object; integer thousandths and counts. */
export interface CostContribution {
  fleetId: number;
  /** Start of the fleet-local day. */
  day: number;
  objectType: string;
  objectId: number;
  servicesCost: number;
  servicesCount: number;
  fuelCost: number;
  fuelCount: number;
  fuelL: number;
  fuelGal: number;
}

const FIGURES = ['servicesCost', 'servicesCount', 'fuelCost', 'fuelCount', 'fuelL', 'fuelGal'] as const;
const COLUMN = {
  servicesCost: 'services_cost',
  servicesCount: 'services_count',
  fuelCost: 'fuel_cost',
  fuelCount: 'fuel_count',
  fuelL: 'fuel_l',
  fuelGal: 'fuel_gal',
} as const;

const keyOf = (c: CostContribution) => `${c.fleetId}:${c.day}:${c.objectType}:${c.objectId}`;

/** Closed, not rejected (spec §4 flags; rejected takes precedence, as core `statusOf`). */
export const isClosedFlags = (f: number) => (f & 24) === 8;

/** A fuel filling's contribution: its fleet day in zone `tz`, cost, count and volume per unit written. */
export function fuelContribution(fleetId: number, tz: number, f: FuelFigures): CostContribution {
  const gallons = f.volumeUnit === FuelMeasure.gallon;
  return {
    fleetId,
    day: startOfDay(tz, f.filledAt),
    objectType: 'u',
    objectId: f.unitId,
    servicesCost: 0,
    servicesCount: 0,
    fuelCost: f.cost,
    fuelCount: 1,
    fuelL: gallons ? 0 : f.volume,
    fuelGal: gallons ? f.volume : 0,
  };
}

/**
 * The net change per row key of `after` less `before` (rows that cancel out are left out), each key
 * also added to its fleet's `*` row.
 */
export function costDeltas(
  before: readonly (CostContribution | null)[],
  after: readonly (CostContribution | null)[],
): CostContribution[] {
  const out = new Map<string, CostContribution>();
  const add = (c: CostContribution, sign: 1 | -1) => {
    for (const target of [c, { ...c, objectType: '*', objectId: 0 }]) {
      const key = keyOf(target);
      let row = out.get(key);
      if (!row) {
        row = { ...target, ...Object.fromEntries(FIGURES.map((k) => [k, 0])) } as CostContribution;
        out.set(key, row);
      }
      for (const k of FIGURES) row[k] += sign * c[k];
    }
  };
  for (const c of before) if (c) add(c, -1);
  for (const c of after) if (c) add(c, 1);
  return [...out.values()].filter((r) => FIGURES.some((k) => r[k] !== 0));
}

/** Rows per multi-row upsert: 10 values a row, well inside both dialects' bind-parameter limits. */
const CHUNK = 500;

/**
 * Adds `after − before` to the daily aggregates in the caller's transaction and bumps the version of
 * every fleet whose figures changed. Contributions may be lists (batch writes); null is "nothing".
 */
export async function applyCostDelta(
  trx: Kysely<Database>,
  before: CostContribution | null | readonly (CostContribution | null)[],
  after: CostContribution | null | readonly (CostContribution | null)[],
): Promise<void> {
  const list = (v: typeof before) => (Array.isArray(v) ? v : [v as CostContribution | null]);
  const deltas = costDeltas(list(before), list(after));
  if (deltas.length === 0) return;
  // One order for every writer, so that concurrent PostgreSQL transactions lock rows in the same order.
  deltas.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  // The version first: its row lock (held to the commit) serialises the cost writers of a fleet on
  // PostgreSQL, so that each computes the running totals from rows no other one is changing.
  await bumpStatistics(
    trx,
    [...new Set(deltas.map((d) => d.fleetId))],
    deltas.filter((d) => d.objectType === 'u'),
  );
  for (let i = 0; i < deltas.length; i += CHUNK) {
    const part = deltas.slice(i, i + CHUNK);
    await trx
      .insertInto('cost_days')
      .values(
        part.map((d) => ({
          fleet_id: d.fleetId,
          day: d.day,
          object_type: d.objectType,
          object_id: d.objectId,
          services_cost: d.servicesCost,
          services_count: d.servicesCount,
          fuel_cost: d.fuelCost,
          fuel_count: d.fuelCount,
          fuel_l: d.fuelL,
          fuel_gal: d.fuelGal,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['fleet_id', 'day', 'object_type', 'object_id'])
          .doUpdateSet(
            Object.fromEntries(
              FIGURES.map((k) => [
                COLUMN[k],
                sql`${sql.ref(`cost_days.${COLUMN[k]}`)} + ${sql.ref(`excluded.${COLUMN[k]}`)}`,
              ]),
            ),
          ),
      )
      .execute();
  }
  await updateRunningTotals(trx, deltas);
}

/** The running totals of migration 021, beside the daily figures of `cost_days`. */
export type RunningColumn = `run_${(typeof RUNNING_FIGURES)[number]}`;
export type RunningTables = {
  cost_days: CostDayTable & Record<RunningColumn, Generated<number>>;
};

/**
 * Computes the running totals (migration 021) of every object that `deltas` changed again, from its
 * earliest changed day on: each row's are the last row's before that day (or 0) plus the window sum of
 * the daily figures up to its own day. One statement per object, in the order of `deltas`.
 */
async function updateRunningTotals(trx: Kysely<Database>, deltas: readonly CostContribution[]) {
  const from = new Map<string, CostContribution>();
  for (const d of deltas) {
    const key = `${d.fleetId}:${d.objectType}:${d.objectId}`;
    const known = from.get(key);
    if (!known || d.day < known.day) from.set(key, d);
  }
  for (const d of from.values()) {
    const sameObject = sql`fleet_id = ${d.fleetId} and object_type = ${d.objectType} and object_id = ${d.objectId}`;
    const sets = RUNNING_FIGURES.map(
      (f) => sql`${sql.ref(`run_${f}`)} = ${sql.ref(`w.r_${f}`)} + coalesce(${sql.ref(`b.run_${f}`)}, 0)`,
    );
    const sums = RUNNING_FIGURES.map(
      (f) => sql`sum(${sql.ref(f)}) over (order by day) as ${sql.ref(`r_${f}`)}`,
    );
    const base = RUNNING_FIGURES.map((f) => sql.ref(`run_${f}`));
    await sql`update cost_days set ${sql.join(sets)}
      from (select day as d, ${sql.join(sums)} from cost_days where ${sameObject} and day >= ${d.day}) as w
      left join (select ${sql.join(base)} from cost_days where ${sameObject} and day < ${d.day}
                 order by day desc limit 1) as b on 1 = 1
      where cost_days.fleet_id = ${d.fleetId} and cost_days.object_type = ${d.objectType}
        and cost_days.object_id = ${d.objectId} and cost_days.day = w.d`.execute(trx);
  }
}

/**
 * Counts a change of the fleets' statistics (costs, counter history or live counters) in the caller's
 * transaction: the statistics cache (service.ts) answers from memory only while the version it read
 * is the current one, so a committed write is never answered from an older reply, on any instance.
 * `units` (fleet, unit) are the units whose figures the write moved: they are logged under the version
 * reached (`statistics_unit_changes`, migration 018), so a cached reply recomputes only them.
 */
export async function bumpStatistics(
  trx: Kysely<Database>,
  fleetIds: number[],
  units: readonly { fleetId: number; objectId: number }[] = [],
): Promise<void> {
  const db = trx.withTables<UnitChangesTables>();
  for (const fleetId of [...fleetIds].sort((a, b) => a - b)) {
    const { version } = await db
      .insertInto('statistics_versions')
      .values({ fleet_id: fleetId, version: 1 })
      .onConflict((oc) =>
        oc.column('fleet_id').doUpdateSet({ version: sql`${sql.ref('statistics_versions.version')} + 1` }),
      )
      .returning('version')
      .executeTakeFirstOrThrow();
    const reached = Number(version);
    const ids = [...new Set(units.filter((u) => u.fleetId === fleetId).map((u) => u.objectId))];
    for (let i = 0; i < ids.length; i += CHUNK)
      await db
        .insertInto('statistics_unit_changes')
        .values(ids.slice(i, i + CHUNK).map((unit_id) => ({ fleet_id: fleetId, version: reached, unit_id })))
        .execute();
    // Now and then, the versions before the kept window go; `changes_from` says from where it is whole.
    if (reached % UNIT_CHANGES_TRIM_EVERY === 0) {
      const from = reached - UNIT_CHANGES_KEPT + 1;
      await db
        .deleteFrom('statistics_unit_changes')
        .where('fleet_id', '=', fleetId)
        .where('version', '<', from)
        .execute();
      await db
        .updateTable('statistics_versions')
        .set({ changes_from: from })
        .where('fleet_id', '=', fleetId)
        .execute();
    }
  }
}

/** Versions whose changed units are kept (migration 018); older cached replies are computed in full. */
export const UNIT_CHANGES_KEPT = 1024;
/** How often (in versions of a fleet) the writer drops the versions before the kept window. */
const UNIT_CHANGES_TRIM_EVERY = 128;

/** The tables of migration 018, beside those of db/schema.ts. */
export type UnitChangesTables = {
  statistics_unit_changes: { fleet_id: number; version: number; unit_id: number };
  statistics_versions: { fleet_id: number; version: number; changes_from: Generated<number> };
};

/** A service's line items total, each quantity × cost rounded half away from zero to thousandths. */
const product = sql<number>`(${sql.ref('qty')} * ${sql.ref('cost')})`;
const lineTotal = sql<number>`sum(case when ${product} >= 0 then (${product} + 500) / 1000 else -((500 - ${product}) / 1000) end)`;

/**
 * The contributions of services as stored now (null for one that is not closed, or gone): its cost is
 * the sum of its line items (as maintenance-wire.ts `serviceToWire` computes `total_cost`), else the
 * hand-entered total (PRODUCT.md "Services"), on its end date.
 */
export async function serviceContributions(
  trx: Kysely<Database>,
  ids: readonly number[],
): Promise<Map<number, CostContribution | null>> {
  const out = new Map<number, CostContribution | null>(ids.map((id) => [id, null]));
  const wanted = [...new Set(ids)];
  for (let i = 0; i < wanted.length; i += CHUNK) {
    const part = wanted.slice(i, i + CHUNK);
    const rows = await trx
      .selectFrom('services')
      .select(['id', 'fleet_id', 'object_type', 'object_id', 'f', 'end_date', 'manual_cost'])
      .where('id', 'in', part)
      .execute();
    const closed = rows.filter((r) => isClosedFlags(r.f) && r.end_date !== null);
    if (closed.length === 0) continue;
    const totals = new Map(
      (
        await trx
          .selectFrom('service_line_items')
          .select(['service_id', sql<number>`cast(${lineTotal} as bigint)`.as('total')])
          .where(
            'service_id',
            'in',
            closed.map((r) => r.id),
          )
          .groupBy('service_id')
          .execute()
      ).map((r) => [r.service_id, Number(r.total)]),
    );
    for (const r of closed)
      out.set(r.id, {
        fleetId: r.fleet_id,
        day: r.end_date as number,
        objectType: r.object_type,
        objectId: r.object_id,
        servicesCost: totals.get(r.id) ?? r.manual_cost ?? 0,
        servicesCount: 1,
        fuelCost: 0,
        fuelCount: 0,
        fuelL: 0,
        fuelGal: 0,
      });
  }
  return out;
}

/**
 * Brackets a write of services: reads the contributions of `ids` now, and `done()` (in the same
 * transaction, after the write) reads them again and applies the difference. Ids of services the
 * write creates may be added before `done()`.
 */
export async function trackServices(trx: Kysely<Database>, ids: readonly number[]) {
  const tracked = new Set(ids);
  const before = ids.length ? await serviceContributions(trx, ids) : new Map();
  return {
    add(id: number) {
      tracked.add(id);
    },
    async done() {
      const all = [...tracked];
      if (all.length === 0) return;
      const after = await serviceContributions(trx, all);
      await applyCostDelta(
        trx,
        all.map((id) => before.get(id) ?? null),
        all.map((id) => after.get(id) ?? null),
      );
    },
  };
}

/**
 * A fleet's zone changed (PUT /api/fleets/{id}, spec §3 `tz`): its fuel fillings move to the fleet days
 * of the new zone, in the settings' transaction. (Services keep their end dates, which are the days
 * they were closed on.)
 */
export async function moveFuelDays(
  trx: Kysely<Database>,
  fleetId: number,
  fromTz: number,
  toTz: number,
): Promise<void> {
  if (fromTz === toTz) return;
  let after = 0;
  for (;;) {
    const page = await trx
      .selectFrom('fuel_fillings')
      .select(['id', 'unit_id', 'filled_at', 'volume', 'volume_unit', 'total_cost'])
      .where('fleet_id', '=', fleetId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(5000)
      .execute();
    if (page.length === 0) return;
    const figures = page.map((f) => ({
      unitId: f.unit_id,
      filledAt: f.filled_at,
      volume: f.volume,
      volumeUnit: f.volume_unit,
      cost: f.total_cost,
      mileage: null,
      full: false,
    }));
    await applyCostDelta(
      trx,
      figures.map((f) => fuelContribution(fleetId, fromTz, f)),
      figures.map((f) => fuelContribution(fleetId, toTz, f)),
    );
    after = page[page.length - 1]!.id;
  }
}
