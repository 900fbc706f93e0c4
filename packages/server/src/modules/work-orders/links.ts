import type { LineItemLineInput } from '@fleetkeep/core';
import { type AppContext, now } from '../../context.js';
import type { WorkOrderRow } from '../../db/schema.js';
import type { UnitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput } from '../../http/errors.js';
import { changeIssueStatus } from '../issues/status.js';
import { thousandths } from '../lineitems/library.js';
import { applyLineUses, checkStockLines } from '../parts/stock.js';

/**
 * The contents of a work order, written inside its unit of work (docs/product.md "Work orders"):
 * linked issues (through the issues module's status change: linking puts an open issue "in a work
 * order", unlinking puts it back to open), linked open services of the same object, and line items.
 */

type Order = Pick<WorkOrderRow, 'id' | 'fleet_id' | 'object_type' | 'object_id'>;

/** Open services: neither closed (8) nor rejected (16), spec §4. */
const isOpenService = (f: number) => (f & 24) === 0;

/** Issues linked to the work order now. */
export async function linkedIssueIds(work: UnitOfWork, order: Order): Promise<number[]> {
  const rows = await work.trx
    .selectFrom('issues')
    .select('id')
    .where('fleet_id', '=', order.fleet_id)
    .where('work_order_id', '=', order.id)
    .where('status', '=', 'workorder')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Makes the linked issues exactly `ids`: the new ones must be of the fleet (400 otherwise) and of the
 * work order's object (409), and open (409 from the issues' rules); the ones left out go back to open.
 */
export async function setIssues(
  work: UnitOfWork,
  ctx: AppContext,
  order: Order,
  ids: number[],
  by: number | null,
): Promise<void> {
  const current = await linkedIssueIds(work, order);
  const added = ids.filter((id) => !current.includes(id));
  const removed = current.filter((id) => !ids.includes(id));
  if (added.length) {
    const rows = await work.trx
      .selectFrom('issues')
      .select(['id', 'object_type', 'object_id'])
      .where('fleet_id', '=', order.fleet_id)
      .where('id', 'in', added)
      .execute();
    const known = new Set(rows.map((r) => r.id));
    const unknown = added.filter((id) => !known.has(id));
    if (unknown.length)
      throw invalidInput(
        unknown.map((id) => ({ field: 'body.issue_ids', message: `Unknown issue ${id} in this fleet` })),
      );
    const other = rows.filter((r) => r.object_type !== order.object_type || r.object_id !== order.object_id);
    if (other.length)
      throw conflict(
        'An issue of another object cannot be linked',
        other.map((r) => ({ id: r.id, kind: 'issue', reason: 'other_object' })),
      );
  }
  for (const issueId of removed)
    await changeIssueStatus(work, ctx, { fleetId: order.fleet_id, issueId, action: 'fromWorkOrder', by });
  for (const issueId of added)
    await changeIssueStatus(work, ctx, {
      fleetId: order.fleet_id,
      issueId,
      action: 'toWorkOrder',
      by,
      workOrderId: order.id,
    });
}

/** Puts every linked issue back to open (cancel, delete). */
export async function releaseIssues(work: UnitOfWork, ctx: AppContext, order: Order, by: number | null) {
  await setIssues(work, ctx, order, [], by);
}

/**
 * Makes the linked services exactly `ids`, in that order: each must be a service of the fleet (400),
 * of the work order's object, open (Due, overdue or In progress), and in no other unfinished work
 * order (409 naming each).
 */
export async function setServices(work: UnitOfWork, order: Order, ids: number[]): Promise<void> {
  if (ids.length) {
    const rows = await work.trx
      .selectFrom('services')
      .select(['id', 'object_type', 'object_id', 'f'])
      .where('fleet_id', '=', order.fleet_id)
      .where('id', 'in', ids)
      .execute();
    const known = new Set(rows.map((r) => r.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length)
      throw invalidInput(
        unknown.map((id) => ({ field: 'body.service_ids', message: `Unknown service ${id} in this fleet` })),
      );
    const before = await work.trx
      .selectFrom('work_order_services')
      .select('service_id')
      .where('work_order_id', '=', order.id)
      .execute();
    const kept = new Set(before.map((r) => r.service_id));
    const busy = await work.trx
      .selectFrom('work_order_services as l')
      .innerJoin('work_orders as w', 'w.id', 'l.work_order_id')
      .select(['l.service_id', 'w.id'])
      .where('l.fleet_id', '=', order.fleet_id)
      .where('l.service_id', 'in', ids)
      .where('w.id', '!=', order.id)
      .where('w.status', 'in', ['open', 'in_progress', 'on_hold'])
      .execute();
    const refusals = [
      ...rows
        .filter((r) => r.object_type !== order.object_type || r.object_id !== order.object_id)
        .map((r) => ({ id: r.id, kind: 'service', reason: 'other_object' })),
      ...rows
        .filter((r) => !isOpenService(r.f) && !kept.has(r.id))
        .map((r) => ({ id: r.id, kind: 'service', reason: 'archived', value: String(r.f) })),
      ...busy.map((b) => ({
        id: b.service_id,
        kind: 'service',
        reason: 'in_work_order',
        value: String(b.id),
      })),
    ];
    if (refusals.length) throw conflict('Some services cannot be linked to this work order', refusals);
  }
  await work.trx.deleteFrom('work_order_services').where('work_order_id', '=', order.id).execute();
  if (ids.length)
    await work.trx
      .insertInto('work_order_services')
      .values(
        ids.map((serviceId, position) => ({
          work_order_id: order.id,
          service_id: serviceId,
          fleet_id: order.fleet_id,
          position,
        })),
      )
      .execute();
}

/** Replaces the line items (quantities and unit costs as integer thousandths). */
export async function setLines(
  work: UnitOfWork,
  order: Order,
  lines: LineItemLineInput[],
  by: number | null,
): Promise<void> {
  // Parts taken from stock (modules/parts): the old lines give back, the new ones take.
  await checkStockLines(work.trx, order.fleet_id, lines);
  const before = await work.trx
    .selectFrom('work_order_line_items')
    .select(['part_id', 'location_id', 'qty'])
    .where('work_order_id', '=', order.id)
    .where('part_id', 'is not', null)
    .execute();
  await applyLineUses(
    work.trx,
    { fleetId: order.fleet_id, by, at: now() },
    { type: 'w', id: order.id },
    before.map((r) => ({ pid: r.part_id, slid: r.location_id, qty: Number(r.qty) })),
    lines.map((l) => ({ pid: l.pid, slid: l.slid, qty: thousandths(l.q) })),
  );
  work.recorded();
  await work.trx.deleteFrom('work_order_line_items').where('work_order_id', '=', order.id).execute();
  if (lines.length === 0) return;
  await work.trx
    .insertInto('work_order_line_items')
    .values(
      lines.map((l, position) => ({
        work_order_id: order.id,
        fleet_id: order.fleet_id,
        position,
        name: l.n,
        kind: l.t,
        qty: thousandths(l.q),
        cost: thousandths(l.c),
        part_id: l.pid ?? null,
        location_id: l.pid == null ? null : (l.slid ?? null),
      })),
    )
    .execute();
}
