import {
  ACTIVE_WORK_ORDER_STATUSES,
  isActiveWorkOrder,
  type NewDomainEvent,
  type WorkOrderCreateInput,
  type WorkOrderListQuery,
  type WorkOrderListReply,
  type WorkOrderStatus,
  type WorkOrderUpdateInput,
  type WorkOrderWire,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database, WorkOrderRow } from '../../db/schema.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput } from '../../http/errors.js';
import { changedFixedFields } from '../../http/fixed-fields.js';
import { issueObject } from '../issues/open.js';
import { releaseIssues, setIssues, setLines, setServices } from './links.js';
import { loadWorkOrder, workOrderWireById, workOrderWires } from './load.js';

/**
 * Work orders of units and trailers (docs/product.md "Work orders"). Reading needs `workorder.view`,
 * every write `workorder.manage`. Every query filters on the fleet: another fleet's work order is not
 * found (404). The status actions are in actions.ts.
 */

/** The subject of the work order's domain events, as it is in `row`. */
export const workOrderSubject = (
  row: Pick<WorkOrderRow, 'id' | 'object_type' | 'object_id' | 'status' | 'assignee_id'>,
) => ({
  workOrderId: row.id,
  objectType: row.object_type as 'u' | 't',
  objectId: row.object_id,
  status: row.status as WorkOrderStatus,
  assigneeId: row.assignee_id,
});

/** Queues the live event of the work order (created, updated or deleted; `emitRecord`). */
export function emitWorkOrder(
  ctx: AppContext,
  work: UnitOfWork,
  fleetId: number,
  id: number,
  t: 'c' | 'u' | 'd',
  /** For a deletion: the object it concerned (events/visibility.ts). */
  on?: { t: 'u' | 't'; id: number },
) {
  work.emitRecord(
    'workorder',
    fleetId,
    id,
    t,
    async () => {
      const row = await ctx.db.kysely
        .selectFrom('work_orders')
        .selectAll()
        .where('fleet_id', '=', fleetId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? (await workOrderWires(ctx.db.kysely, fleetId, [row]))[0] : undefined;
    },
    on,
  );
}

/** The work order for update: locked on PostgreSQL, 404 when it is not of the fleet. */
export async function lockWorkOrder(ctx: AppContext, work: UnitOfWork, fleetId: number, id: number) {
  const row = await ctx.db.ops
    .forUpdate(
      work.trx.selectFrom('work_orders').selectAll().where('fleet_id', '=', fleetId).where('id', '=', id),
    )
    .executeTakeFirst();
  return row ?? loadWorkOrder(work.trx, fleetId, id);
}

/** 400 unless the user is a member of the fleet. */
async function checkAssignee(db: Kysely<Database>, fleetId: number, userId: number | null | undefined) {
  if (userId === null || userId === undefined) return;
  const member = await db
    .selectFrom('fleet_users')
    .select('user_id')
    .where('fleet_id', '=', fleetId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!member) throw invalidInput([{ field: 'body.assignee_id', message: 'Not a member of this fleet' }]);
}

function checkSchedule(start: number | null, end: number | null) {
  if (start !== null && end !== null && end < start)
    throw invalidInput([{ field: 'body.scheduled_end', message: 'Must not be before the scheduled start' }]);
}

export async function listWorkOrders(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  q: WorkOrderListQuery,
): Promise<WorkOrderListReply> {
  await requireFleet(ctx, actor, fleetId, 'workorder.view');
  if (q.object_id !== undefined && q.object_type === undefined)
    throw invalidInput([{ field: 'querystring.object_type', message: 'Required with object_id' }]);
  const at = now();
  let query = ctx.db.kysely.selectFrom('work_orders').where('fleet_id', '=', fleetId);
  if (q.status?.length) query = query.where('status', 'in', q.status);
  if (q.object_type !== undefined) query = query.where('object_type', '=', q.object_type);
  if (q.object_id !== undefined) query = query.where('object_id', '=', q.object_id);
  if (q.assignee !== undefined) query = query.where('assignee_id', '=', q.assignee);
  if (q.overdue === '1')
    query = query
      .where('status', 'in', [...ACTIVE_WORK_ORDER_STATUSES])
      .where('scheduled_end', 'is not', null)
      .where('scheduled_end', '<', at);
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = query.selectAll();
  switch (q.sort ?? 'created') {
    case 'scheduled':
      rows = rows.orderBy('scheduled_end', 'asc').orderBy('created_at', 'desc');
      break;
    case 'updated':
      rows = rows.orderBy('updated_at', 'desc');
      break;
    default:
      rows = rows.orderBy('created_at', 'desc');
  }
  const page = await rows
    .orderBy('id', 'desc')
    .limit(q.limit ?? 10_000)
    .offset(q.offset ?? 0)
    .execute();
  return { work_orders: await workOrderWires(ctx.db.kysely, fleetId, page, at), total: Number(n) };
}

/** GET .../work-orders/assignees: the fleet's members, by name. */
export async function listAssignees(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'workorder.manage');
  const rows = await ctx.db.kysely
    .selectFrom('fleet_users')
    .innerJoin('users', 'users.id', 'fleet_users.user_id')
    .select(['users.id', 'users.name', 'users.full_name'])
    .where('fleet_users.fleet_id', '=', fleetId)
    .execute();
  const users = rows.map((r) => ({ id: r.id, nm: r.full_name || r.name }));
  users.sort((a, b) => a.nm.localeCompare(b.nm) || a.id - b.id);
  return { users };
}

export async function getWorkOrder(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
): Promise<WorkOrderWire> {
  await requireFleet(ctx, actor, fleetId, 'workorder.view');
  return workOrderWireById(ctx.db.kysely, fleetId, id);
}

/** POST .../work-orders: open, made by the caller, with its links and line items. */
export async function createWorkOrder(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: WorkOrderCreateInput,
): Promise<WorkOrderWire> {
  await requireFleet(ctx, actor, fleetId, 'workorder.manage');
  const id = await unitOfWork(ctx, async (trx, work) => {
    await issueObject(trx, fleetId, input.object_type, input.object_id);
    await checkAssignee(trx, fleetId, input.assignee_id);
    const scheduledStart = input.scheduled_start ?? null;
    const scheduledEnd = input.scheduled_end ?? null;
    checkSchedule(scheduledStart, scheduledEnd);
    const at = now();
    const row = {
      fleet_id: fleetId,
      object_type: input.object_type,
      object_id: input.object_id,
      title: input.title,
      description: input.description ?? '',
      status: 'open',
      assignee_id: input.assignee_id ?? null,
      created_by: actor.userId,
      scheduled_start: scheduledStart,
      scheduled_end: scheduledEnd,
      actual_start: null,
      actual_end: null,
      mileage: null,
      engine_hours: null,
      downtime_start: null,
      service_id: null,
      created_at: at,
      updated_at: at,
    };
    const { id } = await trx.insertInto('work_orders').values(row).returning('id').executeTakeFirstOrThrow();
    const order = { ...row, id };
    await setIssues(work, ctx, order, input.issue_ids ?? [], actor.userId);
    await setServices(work, order, input.service_ids ?? []);
    await setLines(work, order, input.li ?? [], actor.userId);
    const base = { fid: fleetId, at, by: actor.userId, ...workOrderSubject(order) };
    const events: NewDomainEvent[] = [{ type: 'workOrder.created', ...base }];
    if (order.assignee_id !== null) events.push({ type: 'workOrder.assigned', ...base });
    await work.record(events);
    emitWorkOrder(ctx, work, fleetId, id, 'c');
    return id;
  });
  return workOrderWireById(ctx.db.kysely, fleetId, id);
}

/** 409 unless the work order is still to be done (completed and cancelled ones are frozen). */
export function requireActive(row: WorkOrderRow) {
  if (!isActiveWorkOrder(row.status as WorkOrderStatus))
    throw conflict('The work order is finished', [
      { id: row.id, kind: 'workorder', reason: 'finished', value: row.status },
    ]);
}

/** PUT .../work-orders/{id}: the fields sent of an unfinished work order; status and object fixed. */
export async function updateWorkOrder(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: WorkOrderUpdateInput,
): Promise<WorkOrderWire> {
  await requireFleet(ctx, actor, fleetId, 'workorder.manage');
  await unitOfWork(ctx, async (trx, work) => {
    const row = await lockWorkOrder(ctx, work, fleetId, id);
    const fixed = changedFixedFields(patch, {
      status: row.status,
      object_type: row.object_type,
      object_id: row.object_id,
    });
    if (fixed.length) throw invalidInput(fixed);
    requireActive(row);
    await checkAssignee(trx, fleetId, patch.assignee_id);
    const scheduledStart = patch.scheduled_start === undefined ? row.scheduled_start : patch.scheduled_start;
    const scheduledEnd = patch.scheduled_end === undefined ? row.scheduled_end : patch.scheduled_end;
    checkSchedule(
      scheduledStart === null ? null : Number(scheduledStart),
      scheduledEnd === null ? null : Number(scheduledEnd),
    );
    const set = {
      ...(patch.title !== undefined && { title: patch.title }),
      ...(patch.description !== undefined && { description: patch.description }),
      ...(patch.assignee_id !== undefined && { assignee_id: patch.assignee_id }),
      scheduled_start: scheduledStart,
      scheduled_end: scheduledEnd,
      updated_at: now(),
    };
    await trx.updateTable('work_orders').set(set).where('id', '=', id).execute();
    if (patch.issue_ids !== undefined) await setIssues(work, ctx, row, patch.issue_ids, actor.userId);
    if (patch.service_ids !== undefined) await setServices(work, row, patch.service_ids);
    if (patch.li !== undefined) await setLines(work, row, patch.li, actor.userId);
    const after = { ...row, ...set };
    const base = { fid: fleetId, at: set.updated_at, by: actor.userId, ...workOrderSubject(after) };
    const events: NewDomainEvent[] = [
      { type: 'workOrder.changed', ...base, before: row.status as WorkOrderStatus },
    ];
    if (after.assignee_id !== null && after.assignee_id !== row.assignee_id)
      events.push({ type: 'workOrder.assigned', ...base });
    await work.record(events);
    emitWorkOrder(ctx, work, fleetId, id, 'u');
  });
  return workOrderWireById(ctx.db.kysely, fleetId, id);
}

/**
 * DELETE .../work-orders/{id}: an unfinished or cancelled one; its issues go back to open. A completed
 * work order made archive records and stays (409).
 */
export async function deleteWorkOrder(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'workorder.manage');
  await unitOfWork(ctx, async (trx, work) => {
    const row = await lockWorkOrder(ctx, work, fleetId, id);
    if (row.status === 'completed')
      throw conflict('A completed work order is kept', [
        { id: row.id, kind: 'workorder', reason: 'completed', value: row.status },
      ]);
    await releaseIssues(work, ctx, row, actor.userId);
    await trx.deleteFrom('work_order_services').where('work_order_id', '=', id).execute();
    // A cancelled or unfinished work order gives its parts back (modules/parts).
    await setLines(work, row, [], actor.userId);
    await trx.deleteFrom('work_orders').where('id', '=', id).execute();
    await work.record([
      { type: 'workOrder.deleted', fid: fleetId, at: now(), by: actor.userId, ...workOrderSubject(row) },
    ]);
    emitWorkOrder(ctx, work, fleetId, id, 'd', { t: row.object_type as 'u' | 't', id: row.object_id });
  });
  return { error: 0 as const };
}
