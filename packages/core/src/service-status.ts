import { ServiceFlag } from './constants.js';
import { OVERDUE_MASK, type RuleKind } from './status.js';

/**
 * Service statuses from the flags of spec §4, shared by the server and every screen. Pure.
 *
 * - Closed and Rejected are the finished group (the archive); then In progress; anything else (upcoming,
 *   overdue, manually) is Due, shown "Due".
 * - Overdue is a flag of a Due service (4 plus 256/512/1024 telling which kind), not a status.
 * - Transitions (PRODUCT.md "Services"): Due → In progress, Closed, Rejected; In progress → Closed,
 *   Rejected, and back to Due (a confirmation made by mistake can be undone; the service stays open, so
 *   "one open service per assignment" still holds). Closed and Rejected are frozen.
 */

export type ServiceStatus = 'due' | 'inProgress' | 'closed' | 'rejected';

/** The statuses in the order screens offer them. */
export const SERVICE_STATUSES: readonly ServiceStatus[] = ['due', 'inProgress', 'closed', 'rejected'];

export const STATUS_FLAG: Record<ServiceStatus, number> = {
  due: ServiceFlag.upcoming,
  inProgress: ServiceFlag.inProgress,
  closed: ServiceFlag.closed,
  rejected: ServiceFlag.rejected,
};

/** Closed or rejected: the archive (spec §4 "Finished group"). */
export const FINISHED_MASK = ServiceFlag.closed | ServiceFlag.rejected;

export function statusOf(f: number): ServiceStatus {
  if (f & ServiceFlag.rejected) return 'rejected';
  if (f & ServiceFlag.closed) return 'closed';
  if (f & ServiceFlag.inProgress) return 'inProgress';
  return 'due';
}

/** The status a request's flag names, when it is exactly one of the four. */
export function statusFromFlag(f: number): ServiceStatus | undefined {
  return SERVICE_STATUSES.find((s) => STATUS_FLAG[s] === f);
}

export const isArchived = (f: number): boolean => (f & FINISHED_MASK) !== 0;

const ALLOWED: Record<ServiceStatus, readonly ServiceStatus[]> = {
  due: ['inProgress', 'closed', 'rejected'],
  inProgress: ['closed', 'rejected', 'due'],
  closed: [],
  rejected: [],
};

/** Staying in Due or In progress is an edit; Closed and Rejected accept no status change at all. */
export function canTransition(from: ServiceStatus, to: ServiceStatus): boolean {
  return from === to ? from === 'due' || from === 'inProgress' : ALLOWED[from].includes(to);
}

/**
 * Flags of a service entering `to`: overdue bits are dropped when it leaves Due (spec §4: overdue is a
 * flag of a Due service); a service set back to Due by a person carries "manually" (128).
 */
export function flagsFor(currentF: number, to: ServiceStatus): number {
  if (to === 'due') {
    return statusOf(currentF) === 'due' ? currentF : ServiceFlag.upcoming | ServiceFlag.manually;
  }
  return STATUS_FLAG[to];
}

/** Spec §4: overdue is a flag of a Due service. */
export function isOverdue(f: number): boolean {
  return statusOf(f) === 'due' && (f & OVERDUE_MASK) !== 0;
}

/** Which kinds are overdue, from the 256/512/1024 bits (spec §4), in that order. */
export function overdueKinds(f: number): RuleKind[] {
  if (!isOverdue(f)) return [];
  const out: RuleKind[] = [];
  if (f & ServiceFlag.overdueByMileage) out.push('mileage');
  if (f & ServiceFlag.overdueByEngineHours) out.push('engineHours');
  if (f & ServiceFlag.overdueByDays) out.push('days');
  return out;
}

/** What a status badge shows (spec §4 display labels): the status, with Overdue apart from Due. */
export type StatusBadge = ServiceStatus | 'overdue';

export function statusBadge(f: number): StatusBadge {
  return isOverdue(f) ? 'overdue' : statusOf(f);
}
