import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import { now } from '../context.js';
import type { Placeholder } from '../db/bulk.js';
import type { Database, ServiceRow } from '../db/schema.js';
import { engineEvents } from '../events/domain.js';
import { type UnitOfWork, unitOfWork } from '../events/unit-of-work.js';
import { createServices, type IntervalLines } from './create.js';
import { serviceLiveEvents } from './events.js';
import { CHUNK, chunks, type EngineScope, type Plan, plan } from './plan.js';

export interface Applied {
  created: ServiceRow[];
  /** The line items of the new services, by interval id (engine/create.ts). */
  lines: Map<number, IntervalLines>;
  changed: ServiceRow[];
}

export const NOTHING = (): Applied => ({ created: [], lines: new Map(), changed: [] });

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
 * Writes a plan made inside the unit's transaction: the new services with their line items, the overdue
 * flag changes, and the domain events of what it wrote (became due, overdue by kind) into the outbox in
 * the same transaction; the unit publishes them after the commit.
 */
async function write(uow: UnitOfWork, placeholder: Placeholder, work: Plan, at: number): Promise<Applied> {
  if (work.creations.length === 0 && work.changes.length === 0) return NOTHING();
  const created = await createServices(uow.trx, placeholder, work, at);
  const changed = await updateFlags(uow.trx, work);
  await uow.record(engineEvents(created.rows, changed, at), { placeholder });
  return { created: created.rows, lines: created.lines, changed: changed.map((c) => c.row) };
}

/**
 * The scope of the plan made again under the locks: the assignments the first plan found work for; or,
 * when a whole fleet's run found more of them than one read by ids takes (a first run over a fleet),
 * the fleet scope itself, whose one read costs less than thousands of ids in chunks. Such a
 * scope has one fleet, which is locked, so whatever the second plan finds is covered by the lock.
 */
function replanScope(scope: EngineScope, assignmentIds: number[]): EngineScope {
  const fleetOnly = scope.fleetId !== undefined && !scope.objects?.length && !scope.assignmentIds?.length;
  if (fleetOnly && assignmentIds.length > CHUNK)
    return { fleetId: scope.fleetId, timeRulesOnly: scope.timeRulesOnly };
  return { assignmentIds };
}

/**
 * Writes what a first (unlocked) plan of `scope` found, in one transaction: on PostgreSQL under a
 * per-fleet transaction advisory lock (DESIGN §6) so that instances running at once do not both create
 * (SQLite's one writer needs none); the plan is made again inside the transaction (`replanScope`), so it
 * acts on committed state.
 */
export async function applyPlan(
  ctx: AppContext,
  scope: EngineScope,
  first: Plan,
  at: number,
): Promise<Applied> {
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
  return unitOfWork(ctx, async (trx, uow) => {
    for (const fid of fleets) await ctx.db.ops.lockInTransaction(trx, 'engineFleet', fid);
    const work = await plan(trx, replanScope(scope, assignmentIds), at);
    const applied = await write(uow, ctx.db.ops.placeholder, work, at);
    // Live events first, then the outbox's consumers (the unit's order): their work would otherwise
    // compete with the events' reads and NOTIFYs.
    uow.afterCommit(() => serviceLiveEvents(ctx, applied.created, 'c', applied.lines));
    uow.afterCommit(() => serviceLiveEvents(ctx, applied.changed, 'u'));
    return applied;
  });
}
