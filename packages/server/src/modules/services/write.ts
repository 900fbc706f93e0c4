import { startOfDay } from '@fleetkeep/core';
import type { Kysely, Updateable } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { now } from '../../context.js';
import type { Database, FleetRow, ServiceRow, ServiceTable } from '../../db/schema.js';
import { recordServiceWrite } from '../../events/domain.js';
import { conflict, invalidInput } from '../../http/errors.js';
import type { Issue } from '../lineitems/library.js';
import { trackServices } from '../statistics/cost-days.js';
import { type Changes, closeBaseline, rejectBaseline, replaceLines } from './effects.js';
import { objectKey } from './load.js';
import type { Plan, PlanContext, ServiceTableInsert } from './plan.js';
import { statusOf } from './rules.js';

/** Acl needs of the services API (spec §2 `/service/{id}` guard, §6 groups and dependencies). */

export function planContext(fleet: FleetRow, actor: Actor): PlanContext {
  const t = now();
  return { fleetId: fleet.id, tz: fleet.tz, today: startOfDay(fleet.tz, t), now: t, actorId: actor.userId };
}

/** Throws the failures of plans: invalid fields first (400), then conflicts (409), with the rows. */
export function throwIssues(plans: { issues: Issue[]; conflict?: string }[], batch: boolean) {
  const issues = plans.flatMap((p, row) => p.issues.map((i) => (batch ? { ...i, row } : i)));
  if (issues.length) throw invalidInput(issues);
  const conflicts = plans.flatMap((p, row) => (p.conflict ? [{ row, reason: p.conflict }] : []));
  if (conflicts.length)
    throw conflict(
      batch ? 'Some services cannot be changed' : conflicts[0]!.reason,
      batch ? conflicts : undefined,
    );
}

export async function insertService(
  trx: Kysely<Database>,
  ch: Changes,
  plan: Plan<ServiceTableInsert>,
): Promise<number> {
  const { id } = await trx.insertInto('services').values(plan.row).returning('id').executeTakeFirstOrThrow();
  // Domain event "service created", in this transaction (events/domain.ts).
  await recordServiceWrite(trx, null, { id, ...plan.row }, plan.row.creator_id, plan.row.created_at);
  if (plan.lines?.length)
    await replaceLines(trx, plan.row.fleet_id, id, plan.lines, ch, plan.row.creator_id ?? null);
  if (plan.to === 'closed' && plan.row.assignment_id !== null)
    await closeBaseline(trx, plan.row.assignment_id, plan.row, ch);
  // statistics: a service created closed adds to the daily cost aggregates (modules/statistics).
  if (plan.to === 'closed') {
    const costs = await trackServices(trx, []);
    costs.add(id);
    await costs.done();
  }
  ch.created.add(id);
  ch.objects.add(objectKey(plan.row.object_type, plan.row.object_id));
  return id;
}

export async function updateService(
  trx: Kysely<Database>,
  ch: Changes,
  pc: PlanContext,
  existing: ServiceRow,
  plan: Plan<Updateable<ServiceTable>>,
) {
  // statistics: closing (or editing a closed service) changes the daily cost aggregates.
  const costs = await trackServices(
    trx,
    statusOf(existing.f) === 'closed' || plan.to === 'closed' ? [existing.id] : [],
  );
  await trx.updateTable('services').set(plan.row).where('id', '=', existing.id).execute();
  // Domain event of a status change (in progress, closed, rejected, back to due), in this transaction.
  if (plan.row.f !== undefined)
    await recordServiceWrite(trx, existing.f, { ...existing, f: plan.row.f }, pc.actorId, pc.now);
  if (plan.lines !== undefined) await replaceLines(trx, pc.fleetId, existing.id, plan.lines, ch, pc.actorId);
  if (plan.from !== plan.to && existing.assignment_id !== null) {
    if (plan.to === 'closed') {
      const merged = { ...existing, ...plan.row } as ServiceRow;
      await closeBaseline(trx, existing.assignment_id, merged, ch);
    } else if (plan.to === 'rejected') {
      await rejectBaseline(trx, existing.assignment_id, plan.object, pc.now, ch);
    }
  }
  await costs.done(); // statistics
  ch.updated.add(existing.id);
  ch.objects.add(objectKey(existing.object_type, existing.object_id));
}

/** Line-item counts of services, for the "manual cost only without line items" rule. */
export async function lineCounts(db: Kysely<Database>, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('service_line_items')
    .select(['service_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('service_id', 'in', ids)
    .groupBy('service_id')
    .execute();
  return new Map(rows.map((r) => [r.service_id, Number(r.n)]));
}
