import { multiplyThousandths } from './decimal.js';

/**
 * Work orders: the workshop's job on one unit or trailer (docs/product.md "Work orders"). Pure rules
 * shared by the server and the web: the statuses and the actions between them, which work order counts
 * as overdue, its downtime, and its line items' total.
 */

/** Statuses: open → in progress ⇄ on hold → completed; any unfinished one may be cancelled. */
export const WORK_ORDER_STATUSES = ['open', 'in_progress', 'on_hold', 'completed', 'cancelled'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

/** The statuses of a work order that is still to be done (lists' "active" filter, the dashboard). */
export const ACTIVE_WORK_ORDER_STATUSES: readonly WorkOrderStatus[] = ['open', 'in_progress', 'on_hold'];

export const isActiveWorkOrder = (status: WorkOrderStatus): boolean =>
  ACTIVE_WORK_ORDER_STATUSES.includes(status);

/** The status actions (each a small POST route). */
export const WORK_ORDER_ACTIONS = ['start', 'hold', 'complete', 'cancel'] as const;
export type WorkOrderAction = (typeof WORK_ORDER_ACTIONS)[number];

const FROM: Record<WorkOrderAction, readonly WorkOrderStatus[]> = {
  start: ['open', 'on_hold'],
  hold: ['in_progress'],
  complete: ['open', 'in_progress', 'on_hold'],
  cancel: ['open', 'in_progress', 'on_hold'],
};

const TO: Record<WorkOrderAction, WorkOrderStatus> = {
  start: 'in_progress',
  hold: 'on_hold',
  complete: 'completed',
  cancel: 'cancelled',
};

export interface WorkOrderTimes {
  actualStart: number | null;
  actualEnd: number | null;
}

export type WorkOrderTransition =
  | { ok: true; status: WorkOrderStatus; actualStart: number | null; actualEnd: number | null }
  | { ok: false; reason: 'not_allowed' };

/**
 * The status an action leads to from `status` at `at`, with the actual start and end it sets: starting
 * (or completing an order never started) sets the actual start once; completing and cancelling set the
 * actual end. A finished work order (completed, cancelled) takes no action.
 */
export function workOrderTransition(
  status: WorkOrderStatus,
  times: WorkOrderTimes,
  action: WorkOrderAction,
  at: number,
): WorkOrderTransition {
  if (!FROM[action].includes(status)) return { ok: false, reason: 'not_allowed' };
  const to = TO[action];
  const startsNow = action === 'start' || action === 'complete';
  const actualStart = times.actualStart ?? (startsNow ? at : null);
  const actualEnd = to === 'completed' || to === 'cancelled' ? at : null;
  return { ok: true, status: to, actualStart, actualEnd };
}

/** The actions the work order page offers from a status, in the order of its buttons. */
export function workOrderActions(status: WorkOrderStatus): WorkOrderAction[] {
  return WORK_ORDER_ACTIONS.filter((a) => FROM[a].includes(status));
}

/** Overdue: its scheduled end has passed and it is neither completed nor cancelled. */
export function isWorkOrderOverdue(
  wo: { status: WorkOrderStatus; scheduledEnd: number | null },
  now: number,
): boolean {
  return isActiveWorkOrder(wo.status) && wo.scheduledEnd !== null && wo.scheduledEnd < now;
}

/**
 * Where the downtime starts: the first linked issue's report time, or the actual start when no issue
 * is linked; null when neither is known yet.
 */
export function downtimeStart(issueReportedAt: readonly number[], actualStart: number | null): number | null {
  if (issueReportedAt.length > 0) return Math.min(...issueReportedAt);
  return actualStart;
}

/**
 * Downtime in seconds: from its start to the completion, or to `now` while the order is active; null
 * when no start is known or the order was cancelled. Never negative.
 */
export function downtimeSeconds(
  start: number | null,
  status: WorkOrderStatus,
  actualEnd: number | null,
  now: number,
): number | null {
  if (start === null || status === 'cancelled') return null;
  const end = status === 'completed' ? (actualEnd ?? now) : now;
  return Math.max(0, end - start);
}

/** A line of a work order in thousandths: quantity and unit cost. */
export interface LineThousandths {
  qty: number;
  cost: number;
}

/**
 * The total of lines in thousandths of the currency: Σ qty × cost, each product rounded to thousandths
 * as a service's line items are (decimal.ts `multiplyThousandths`).
 */
export function linesTotalThousandths(lines: readonly LineThousandths[]): number {
  return lines.reduce((sum, l) => sum + multiplyThousandths(l.qty, l.cost), 0);
}
