import { forecastDate, ServiceFlag } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import { DAY, now } from '../context.js';
import { bulkInsert, type Placeholder } from '../db/bulk.js';
import type { Database, ServiceRow } from '../db/schema.js';
import { engineEvents } from '../events/domain.js';
import { recordDomainEventsBulk } from '../events/outbox.js';
import { chunks, type EngineScope, type Plan, plan } from './plan.js';

/** Window of the average daily distance behind the forecast date (PRODUCT.md "The status engine"). */
const FORECAST_WINDOW_DAYS = 30;

export interface Applied {
  created: ServiceRow[];
  changed: ServiceRow[];
}

/**
 * Average daily km per unit over the last 30 days: the mileage difference between the first and last
 * position of the window divided by the days between them (at least one day). Unknown (absent) with
 * fewer than two positions.
 */
async function averageDailyKm(db: Kysely<Database>, unitIds: number[], at: number) {
  const avg = new Map<number, number>();
  for (const part of chunks(unitIds)) {
    const rows = await db
      .selectFrom('positions')
      .select((eb) => [
        'unit_id',
        eb.fn.min('tm').as('t0'),
        eb.fn.max('tm').as('t1'),
        eb.fn.min('mileage').as('m0'),
        eb.fn.max('mileage').as('m1'),
      ])
      .where('unit_id', 'in', part)
      .where('tm', '>=', at - FORECAST_WINDOW_DAYS * DAY)
      .where('tm', '<=', at)
      .groupBy('unit_id')
      .execute();
    for (const r of rows) {
      const span = Number(r.t1) - Number(r.t0);
      if (span <= 0) continue;
      avg.set(r.unit_id, (Number(r.m1) - Number(r.m0)) / Math.max(span / DAY, 1));
    }
  }
  return avg;
}

/**
 * Copies the line items of each new service's interval onto it, in one `insert … select` per chunk of
 * services: the rows never travel through the process.
 */
async function copyLineItems(trx: Kysely<Database>, serviceIds: number[]): Promise<void> {
  for (const part of chunks(serviceIds))
    await trx
      .insertInto('service_line_items')
      .columns(['service_id', 'position', 'name', 'kind', 'qty', 'cost'])
      .expression(
        trx
          .selectFrom('services as s')
          .innerJoin('interval_line_items as l', 'l.interval_id', 's.interval_id')
          .select(['s.id', 'l.position', 'l.name', 'l.kind', 'l.qty', 'l.cost'])
          .where('s.id', 'in', part)
          .orderBy('s.id')
          .orderBy('l.position'),
      )
      .execute();
}

/** The columns the engine writes of a new service, in the order of the values `insertServices` builds. */
const SERVICE_COLUMNS = [
  'fleet_id',
  'object_type',
  'object_id',
  'interval_id',
  'assignment_id',
  'f',
  'name',
  'description',
  'creator_id',
  'created_at',
  'updated_at',
  'planned_date',
  'forecast_date',
  'limit_mileage',
  'limit_engine_hours',
  'last_date',
  'last_mileage',
  'last_engine_hours',
  'cf',
] as const;

async function insertServices(
  trx: Kysely<Database>,
  placeholder: Placeholder,
  work: Plan,
  at: number,
): Promise<ServiceRow[]> {
  const withMileage = work.creations.filter(
    (c) => c.assignment.object_type === 'u' && c.evaluation.remaining.mileage !== null,
  );
  const avg = await averageDailyKm(trx, [...new Set(withMileage.map((c) => c.assignment.object_id))], at);
  const t = now();
  const rows = work.creations.map(({ assignment: a, interval: i, evaluation: e, tz }) => {
    const unit = a.object_type === 'u';
    return [
      a.fleet_id,
      a.object_type,
      a.object_id,
      i.id,
      a.id,
      ServiceFlag.upcoming | e.overdueFlags,
      i.name,
      i.description,
      null,
      t,
      t,
      e.plannedDate,
      unit ? forecastDate(e.remaining.mileage, avg.get(a.object_id) ?? null, e.today, tz) : null,
      e.remaining.mileage === null ? null : a.lcnm + i.cnmd,
      e.remaining.engineHours === null ? null : a.lceh + i.cnehd,
      a.ltm,
      unit ? a.lcnm : null,
      unit ? a.lceh : null,
      '[]',
    ];
  });
  // Another writer may have opened a service meanwhile: the partial unique index
  // `services_open_assignment` refuses it and the row is skipped (not returned).
  const created = await bulkInsert<ServiceRow>(
    trx,
    placeholder,
    { table: 'services', columns: SERVICE_COLUMNS, skipConflicts: true, returning: true },
    rows,
  );
  await copyLineItems(
    trx,
    created.map((s) => s.id),
  );
  return created;
}

/**
 * Sets the overdue flags, only where the status is still the one planned on (a person may act meanwhile).
 * Returns each changed row with its flags before.
 */
async function updateFlags(trx: Kysely<Database>, work: Plan): Promise<{ row: ServiceRow; from: number }[]> {
  const groups = new Map<string, number[]>();
  for (const c of work.changes) {
    const key = `${c.service.f}:${c.f}`;
    const ids = groups.get(key);
    if (ids) ids.push(c.service.id);
    else groups.set(key, [c.service.id]);
  }
  const changed: { row: ServiceRow; from: number }[] = [];
  const t = now();
  for (const [key, ids] of groups) {
    const [from, to] = key.split(':').map(Number) as [number, number];
    for (const part of chunks(ids)) {
      const rows = await trx
        .updateTable('services')
        .set({ f: to, updated_at: t })
        .where('id', 'in', part)
        .where('f', '=', from)
        .returningAll()
        .execute();
      for (const row of rows) changed.push({ row, from });
    }
  }
  return changed;
}

/**
 * Writes a plan made inside `trx`: the new services with their line items, the overdue flag changes,
 * and the domain events of what it wrote (became due, overdue by kind) into the outbox in the same
 * transaction; the caller publishes them after the commit.
 */
async function write(
  trx: Kysely<Database>,
  placeholder: Placeholder,
  work: Plan,
  at: number,
): Promise<Applied> {
  if (work.creations.length === 0 && work.changes.length === 0) return { created: [], changed: [] };
  const created = await insertServices(trx, placeholder, work, at);
  const changed = await updateFlags(trx, work);
  await recordDomainEventsBulk(trx, engineEvents(created, changed, at), placeholder);
  return { created, changed: changed.map((c) => c.row) };
}

/**
 * Writes what a first (unlocked) plan found, in one transaction: on PostgreSQL under a per-fleet
 * transaction advisory lock (DESIGN §6) so that instances running at once do not both create; the
 * plan is made again inside the lock for the assignments concerned, so it acts on committed state.
 */
export async function applyPlan(ctx: AppContext, first: Plan, at: number): Promise<Applied> {
  const assignmentIds = [
    ...first.creations.map((c) => c.assignment.id),
    ...first.changes.map((c) => c.service.assignment_id),
  ];
  const fleets = [
    ...new Set([
      ...first.creations.map((c) => c.assignment.fleet_id),
      ...first.changes.map((c) => c.service.fleet_id),
    ]),
  ].sort((a, b) => a - b);
  return ctx.db.kysely.transaction().execute(async (trx) => {
    for (const fid of fleets) await ctx.db.ops.lockInTransaction(trx, 'engineFleet', fid);
    return write(trx, ctx.db.ops.placeholder, await plan(trx, { assignmentIds }, at), at);
  });
}

/**
 * One writer at a time on one connection (SQLite, db/dialect `serialWriters`): the plan is made inside
 * the writing transaction, where nothing else can act before the writes, so it is made once. A plan
 * that finds nothing commits a transaction that wrote nothing.
 */
export async function planAndApply(ctx: AppContext, scope: EngineScope, at: number): Promise<Applied> {
  return ctx.db.kysely
    .transaction()
    .execute(async (trx) => write(trx, ctx.db.ops.placeholder, await plan(trx, scope, at), at));
}
