import {
  ACTIVE_WORK_ORDER_STATUSES,
  WORK_ORDER_STATUSES,
  type WorkOrderStatus,
  type WorkOrderWire,
} from '@fleetkeep/core';

/** Pure rules of the work-orders screens (docs/product.md "Work orders"). */

/** The list's status filter as kept in the URL: the unfinished ones (default), all, or one status. */
export type StatusFilter = 'active' | 'all' | WorkOrderStatus;

export function statusFilterOf(value: string | null): StatusFilter {
  if (value === 'all') return 'all';
  if (value && (WORK_ORDER_STATUSES as readonly string[]).includes(value)) return value as WorkOrderStatus;
  return 'active';
}

/** The list route's query for the URL's filters. */
export function listQuery(status: StatusFilter, overdue: boolean): { status?: string; overdue?: '1' } {
  const query: { status?: string; overdue?: '1' } = {};
  if (status === 'active') query.status = ACTIVE_WORK_ORDER_STATUSES.join(',');
  else if (status !== 'all') query.status = status;
  if (overdue) query.overdue = '1';
  return query;
}

/** Badge colour of a status. */
export const STATUS_COLOR: Record<WorkOrderStatus, string> = {
  open: 'blue',
  in_progress: 'yellow',
  on_hold: 'gray',
  completed: 'green',
  cancelled: 'dark',
};

/** Downtime in hours with one decimal, or null. */
export const downtimeHours = (wo: Pick<WorkOrderWire, 'downtime'>): number | null =>
  wo.downtime === null ? null : Math.round(wo.downtime / 360) / 10;

/** The ids of `list` without `id`, or with it added at the end. */
export function toggled(list: readonly number[], id: number): number[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}
