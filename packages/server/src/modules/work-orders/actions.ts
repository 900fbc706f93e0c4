import {
  downtimeSeconds,
  downtimeStart,
  fromThousandths,
  Limits,
  type LineItemLineInput,
  type NewDomainEvent,
  type WorkOrderAction,
  type WorkOrderCompleteInput,
  type WorkOrderStatus,
  type WorkOrderWire,
  workOrderTransition,
} from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { WorkOrderRow } from '../../db/schema.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { conflict } from '../../http/errors.js';
import { issueObject } from '../issues/open.js';
import { changeIssueStatus } from '../issues/status.js';
import { isUniqueViolation } from '../lineitems/library.js';
import { Changes, finishChanges } from '../services/effects.js';
import { objectKey } from '../services/load.js';
import { lookup, planCreate, planUpdate } from '../services/plan.js';
import { insertService, lineCounts, planContext, throwIssues, updateService } from '../services/write.js';
import { linkedIssueIds, releaseIssues } from './links.js';
import { workOrderWireById } from './load.js';
import { emitWorkOrder, lockWorkOrder, workOrderSubject } from './service.js';

/**
 * The status actions of a work order (core work-orders.ts `workOrderTransition`; docs/product.md "Work
 * orders"): start, hold, cancel (its issues go back to open) and complete, which in one unit of work
 * closes the linked services exactly as closing a service does (services write.ts `updateService`,
 * whose `closeBaseline` resets the interval's baseline), archives one service record of the unplanned
 * work, resolves the linked issues and keeps the meter and the downtime.
 */

const REFUSED = 'The work order’s status does not allow this';

function transition(row: WorkOrderRow, action: WorkOrderAction, at: number) {
  const result = workOrderTransition(
    row.status as WorkOrderStatus,
    {
      actualStart: row.actual_start === null ? null : Number(row.actual_start),
      actualEnd: row.actual_end === null ? null : Number(row.actual_end),
    },
    action,
    at,
  );
  if (!result.ok)
    throw conflict(REFUSED, [{ id: row.id, kind: 'workorder', reason: result.reason, value: row.status }]);
  return result;
}

/** POST .../start, /hold, /cancel. */
export async function actOnWorkOrder(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  action: 'start' | 'hold' | 'cancel',
): Promise<WorkOrderWire> {
  await requireFleet(ctx, actor, fleetId, 'workorder.manage');
  await unitOfWork(ctx, async (trx, work) => {
    const row = await lockWorkOrder(ctx, work, fleetId, id);
    const at = now();
    const result = transition(row, action, at);
    if (action === 'cancel') await releaseIssues(work, ctx, row, actor.userId);
    const set = {
      status: result.status,
      actual_start: result.actualStart,
      actual_end: result.actualEnd,
      updated_at: at,
    };
    await trx.updateTable('work_orders').set(set).where('id', '=', id).execute();
    const base = { fid: fleetId, at, by: actor.userId, ...workOrderSubject({ ...row, ...set }) };
    const event: NewDomainEvent =
      action === 'cancel'
        ? { type: 'workOrder.cancelled', ...base }
        : { type: 'workOrder.changed', ...base, before: row.status as WorkOrderStatus };
    await work.record([event]);
    emitWorkOrder(ctx, work, fleetId, id, 'u');
  });
  return workOrderWireById(ctx.db.kysely, fleetId, id);
}

/** The description of the unplanned service record: the work order's, then the issues it fixed. */
function unplannedDescription(row: WorkOrderRow, issueTitles: string[]): string {
  const text = [row.description, ...issueTitles.map((t) => `• ${t}`)].filter(Boolean).join('\n');
  return text.slice(0, Limits.descriptionMax);
}

/** POST .../complete: everything in one unit of work; a refusal of any part writes nothing. */
export async function completeWorkOrder(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: WorkOrderCompleteInput,
): Promise<WorkOrderWire> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'workorder.manage');
  const pc = planContext(fleet, actor);
  await unitOfWork(ctx, async (trx, work) => {
    const row = await lockWorkOrder(ctx, work, fleetId, id);
    const result = transition(row, 'complete', pc.now);
    const type = row.object_type as 'u' | 't';
    const counters = await issueObject(trx, fleetId, type, row.object_id);
    // The meter at completion: as given, else the unit's counters (a trailer has none).
    const mileage = input?.mileage === undefined ? counters.mileage : input.mileage;
    const engineHours = input?.engine_hours === undefined ? counters.engineHours : input.engine_hours;
    const ch = new Changes();
    const closed = await closeLinkedServices(work, pc, row, ch, { mileage, engineHours });
    const issueIds = await linkedIssueIds(work, row);
    const issues = issueIds.length
      ? await trx
          .selectFrom('issues')
          .select(['id', 'title', 'reported_at'])
          .where('fleet_id', '=', fleetId)
          .where('id', 'in', issueIds)
          .orderBy('reported_at')
          .execute()
      : [];
    const lines = await trx
      .selectFrom('work_order_line_items')
      .select(['name', 'kind', 'qty', 'cost'])
      .where('work_order_id', '=', id)
      .orderBy('position')
      .execute();
    let unplanned: number | null = null;
    if (issues.length > 0 || lines.length > 0) {
      const li: LineItemLineInput[] = lines.map((l) => ({
        n: l.name,
        t: l.kind as 1 | 2,
        q: fromThousandths(Number(l.qty)),
        c: fromThousandths(Number(l.cost)),
      }));
      const input = {
        t: type,
        uid: row.object_id,
        f: 8 as const,
        n: row.title,
        description: unplannedDescription(
          row,
          issues.map((i) => i.title),
        ),
        start_date: result.actualStart ?? pc.now,
        li,
        mileage,
        engine_hours: engineHours,
      };
      const plan = planCreate(pc, input, await lookup(trx, fleetId, [input]));
      throwIssues([plan], false);
      unplanned = await insertService(trx, ch, plan);
    }
    for (const issueId of issueIds)
      await changeIssueStatus(work, ctx, {
        fleetId,
        issueId,
        action: 'completeWorkOrder',
        by: actor.userId,
      });
    const start = downtimeStart(
      issues.map((i) => Number(i.reported_at)),
      result.actualStart,
    );
    const set = {
      status: result.status,
      actual_start: result.actualStart,
      actual_end: result.actualEnd,
      mileage,
      engine_hours: engineHours,
      downtime_start: start,
      service_id: unplanned,
      updated_at: pc.now,
    };
    await trx.updateTable('work_orders').set(set).where('id', '=', id).execute();
    await work.record([
      {
        type: 'workOrder.completed',
        fid: fleetId,
        at: pc.now,
        by: actor.userId,
        ...workOrderSubject({ ...row, ...set }),
        closedServiceIds: closed,
        unplannedServiceId: unplanned,
        resolvedIssueIds: issueIds,
        downtime: downtimeSeconds(start, result.status, result.actualEnd, pc.now),
      },
    ]);
    await finishChanges(ctx, fleetId, work, ch);
    emitWorkOrder(ctx, work, fleetId, id, 'u');
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw conflict('An open service exists for this interval and object');
    throw err;
  });
  return workOrderWireById(ctx.db.kysely, fleetId, id);
}

/**
 * Closes each linked service as a person's `{f: 8, mileage, engine_hours}` does (services plan.ts
 * `planUpdate`, write.ts `updateService`): the dates of today, the meter at completion, the baseline
 * reset of its interval. A linked service that was archived meanwhile refuses the completion (409).
 */
async function closeLinkedServices(
  work: UnitOfWork,
  pc: ReturnType<typeof planContext>,
  row: WorkOrderRow,
  ch: Changes,
  meter: { mileage: number | null; engineHours: number | null },
): Promise<number[]> {
  const links = await work.trx
    .selectFrom('work_order_services as l')
    .innerJoin('services as s', 's.id', 'l.service_id')
    .selectAll('s')
    .where('l.work_order_id', '=', row.id)
    .where('s.fleet_id', '=', row.fleet_id)
    .orderBy('l.position')
    .execute();
  if (links.length === 0) return [];
  const archived = links.filter((s) => (s.f & 24) !== 0);
  if (archived.length)
    throw conflict(
      'A linked service is archived already',
      archived.map((s) => ({ id: s.id, kind: 'service', reason: 'archived', value: String(s.f) })),
    );
  const lk = await lookup(work.trx, row.fleet_id, [{ t: row.object_type, uid: row.object_id }]);
  const object = lk.objects.get(objectKey(row.object_type, row.object_id));
  const counts = await lineCounts(
    work.trx,
    links.map((s) => s.id),
  );
  for (const existing of links) {
    const plan = planUpdate(
      pc,
      existing,
      { f: 8, mileage: meter.mileage, engine_hours: meter.engineHours },
      object,
      counts.get(existing.id) ?? 0,
    );
    throwIssues([plan], false);
    await updateService(work.trx, ch, pc, existing, plan);
  }
  return links.map((s) => s.id);
}
