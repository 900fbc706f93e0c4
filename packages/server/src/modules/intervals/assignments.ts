import type { IntervalAssignmentInput, IntervalBaseInput } from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { invalidInput, notFound } from '../../http/errors.js';
import type { Issue } from '../lineitems/library.js';
import { assignmentToWire, baseToWire } from '../maintenance-wire.js';
import { isFutureDay } from './rules.js';
import { checkAssignments, intervalOf, runOutcome } from './service.js';
import { definedBaseline, dropDueServices, fleetObjects, KIND_TYPE, syncAssignments } from './store.js';

/** Assignments of intervals to service objects with their baselines (spec §7 "Intervals", DESIGN §5). */

export async function intervalUnits(ctx: AppContext, actor: Actor, fleetId: number, intervalId: number) {
  await requireFleet(ctx, actor, fleetId, 'interval.view');
  await intervalOf(ctx, fleetId, intervalId);
  const rows = await ctx.db.kysely
    .selectFrom('assignments')
    .selectAll()
    .where('interval_id', '=', intervalId)
    .orderBy('id')
    .execute();
  return { units: rows.map(assignmentToWire) };
}

/** PUT /intervals/{id}/units: replaces the assignment list; staying assignments keep their rows. */
export async function setIntervalUnits(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  intervalId: number,
  units: IntervalAssignmentInput[],
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'interval.manage');
  await intervalOf(ctx, fleetId, intervalId);
  const checked = await checkAssignments(ctx, fleet, units, 'body.units');
  if (checked.issues.length) throw invalidInput(checked.issues);
  const [wire] = await runOutcome(ctx, async (trx) => {
    const { ids, removed } = await syncAssignments(
      trx,
      fleetId,
      intervalId,
      units,
      checked.counters,
      checked.today,
    );
    const droppedServices = await dropDueServices(trx, fleetId, { assignmentIds: removed });
    await trx.updateTable('intervals').set({ updated_at: now() }).where('id', '=', intervalId).execute();
    return {
      fleetId,
      changed: [{ t: 'u' as const, id: intervalId }],
      library: [],
      droppedServices,
      assignmentIds: ids,
    };
  });
  return { units: wire?.u ?? [] };
}

export type ObjectKind = keyof typeof KIND_TYPE;

async function requireObject(ctx: AppContext, fleetId: number, kind: ObjectKind, objectId: number) {
  const { issues } = await fleetObjects(
    ctx.db.kysely,
    fleetId,
    [{ id: objectId, t: KIND_TYPE[kind] }],
    () => 'id',
  );
  if (issues.length) throw notFound('No such object in this fleet');
}

async function basesOf(ctx: AppContext, fleetId: number, kind: ObjectKind, objectId: number) {
  const rows = await ctx.db.kysely
    .selectFrom('assignments')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('object_type', '=', KIND_TYPE[kind])
    .where('object_id', '=', objectId)
    .orderBy('interval_id')
    .execute();
  return rows;
}

/** GET /fleets/{fid}/{units|drivers|trailers}/{id}/bases: the object's assignments and baselines. */
export async function objectBases(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  kind: ObjectKind,
  objectId: number,
) {
  await requireFleet(ctx, actor, fleetId, 'interval.view');
  await requireObject(ctx, fleetId, kind, objectId);
  return { bases: (await basesOf(ctx, fleetId, kind, objectId)).map(baseToWire) };
}

/** PUT …/bases: sets baselines of the object's existing assignments (PRODUCT.md "may be set by hand"). */
export async function setObjectBases(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  kind: ObjectKind,
  objectId: number,
  bases: IntervalBaseInput[],
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'interval.manage');
  await requireObject(ctx, fleetId, kind, objectId);
  const rows = await basesOf(ctx, fleetId, kind, objectId);
  const byInterval = new Map(rows.map((r) => [r.interval_id, r]));
  const issues: Issue[] = [];
  const at = now();
  bases.forEach((b, i) => {
    if (!byInterval.has(b.ivid))
      issues.push({ field: `body.bases.${i}.ivid`, message: 'The object is not assigned to this interval' });
    if (b.ltm !== undefined && isFutureDay(b.ltm, fleet.tz, at))
      issues.push({
        field: `body.bases.${i}.ltm`,
        message: 'Last service date must not be later than today',
      });
  });
  if (issues.length) throw invalidInput(issues);
  await runOutcome(ctx, async (trx) => {
    const touched: { interval: number; assignment: number }[] = [];
    for (const b of bases) {
      const row = byInterval.get(b.ivid);
      const given = definedBaseline(b);
      if (!row || Object.keys(given).length === 0) continue;
      await trx.updateTable('assignments').set(given).where('id', '=', row.id).execute();
      touched.push({ interval: row.interval_id, assignment: row.id });
    }
    return {
      fleetId,
      changed: [...new Set(touched.map((c) => c.interval))].map((id) => ({ t: 'u' as const, id })),
      library: [],
      droppedServices: [],
      assignmentIds: touched.map((c) => c.assignment),
    };
  });
  return { bases: (await basesOf(ctx, fleetId, kind, objectId)).map(baseToWire) };
}
