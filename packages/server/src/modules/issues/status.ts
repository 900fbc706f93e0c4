import { type IssueAction, type IssueStatus, issueTransition, type NewDomainEvent } from '@fleetkeep/core';
import { type AppContext, now } from '../../context.js';
import type { IssueRow } from '../../db/schema.js';
import type { UnitOfWork } from '../../events/unit-of-work.js';
import { conflict } from '../../http/errors.js';
import { loadIssue } from './load.js';
import { emitIssue, issueSubject } from './open.js';

/**
 * Status changes of an issue inside a caller's unit of work (core issues.ts `issueTransition`): the
 * resolve, close and reopen routes, and the work-orders module (`toWorkOrder`, `fromWorkOrder`,
 * `completeWorkOrder`). A change the rules refuse answers 409 with the rule's reason.
 */

export interface IssueChange {
  fleetId: number;
  issueId: number;
  action: IssueAction;
  /** The user who made the change; null for none. */
  by: number | null;
  note?: string | undefined;
  workOrderId?: number | null | undefined;
}

const REASONS = {
  not_allowed: 'The issue’s status does not allow this',
  note_required: 'A note is required',
  work_order_required: 'A work order is required',
} as const;

/** Applies `change`; returns the row after it. */
export async function changeIssueStatus(
  work: UnitOfWork,
  ctx: AppContext,
  change: IssueChange,
): Promise<IssueRow> {
  const row =
    (await ctx.db.ops
      .forUpdate(
        work.trx
          .selectFrom('issues')
          .selectAll()
          .where('fleet_id', '=', change.fleetId)
          .where('id', '=', change.issueId),
      )
      .executeTakeFirst()) ?? (await loadIssue(work.trx, change.fleetId, change.issueId));
  const result = issueTransition(
    { status: row.status as IssueStatus, workOrderId: row.work_order_id, note: row.note },
    { action: change.action, note: change.note, workOrderId: change.workOrderId },
  );
  if (!result.ok)
    throw conflict(REASONS[result.reason], [
      { id: row.id, kind: 'issue', reason: result.reason, value: row.status },
    ]);
  const at = now();
  const set = {
    status: result.state.status,
    work_order_id: result.state.workOrderId,
    note: result.state.note,
    ended_at: result.ends ? at : null,
    ended_by: result.ends ? change.by : null,
    updated_at: at,
  };
  await work.trx.updateTable('issues').set(set).where('id', '=', row.id).execute();
  const after = { ...row, ...set };
  const base = { fid: change.fleetId, at, by: change.by, ...issueSubject(after) };
  const event: NewDomainEvent =
    result.state.status === 'resolved'
      ? { type: 'issue.resolved', ...base, workOrderId: result.state.workOrderId }
      : result.state.status === 'closed'
        ? { type: 'issue.closed', ...base }
        : { type: 'issue.changed', ...base, before: row.status as IssueStatus };
  await work.record([event]);
  emitIssue(ctx, work, change.fleetId, row.id, 'u');
  return after;
}
