import { ServiceFlag, startOfDay, tzOffsetMinutes } from '@fleetkeep/core';

/**
 * Status and date rules of services (spec §4, PRODUCT.md "Services", "The status engine"). Pure.
 *
 * Transitions: Due → In progress, Closed, Rejected; In progress → Closed, Rejected, and back to Due (a
 * confirmation made by mistake can be undone; the service stays open, so "one open service per
 * assignment" still holds). Closed and Rejected are frozen (the archive).
 */

export type Status = 'due' | 'inProgress' | 'closed' | 'rejected';

export const STATUS_FLAG: Record<Status, number> = {
  due: ServiceFlag.upcoming,
  inProgress: ServiceFlag.inProgress,
  closed: ServiceFlag.closed,
  rejected: ServiceFlag.rejected,
};

/** Closed or rejected: the archive (spec §4 "Finished group"). */
export const FINISHED_MASK = ServiceFlag.closed | ServiceFlag.rejected;

export function statusOf(f: number): Status {
  if (f & ServiceFlag.rejected) return 'rejected';
  if (f & ServiceFlag.closed) return 'closed';
  if (f & ServiceFlag.inProgress) return 'inProgress';
  return 'due';
}

export function statusFromFlag(f: number): Status | undefined {
  return (Object.keys(STATUS_FLAG) as Status[]).find((s) => STATUS_FLAG[s] === f);
}

export const isArchived = (f: number) => (f & FINISHED_MASK) !== 0;

const ALLOWED: Record<Status, Status[]> = {
  due: ['inProgress', 'closed', 'rejected'],
  inProgress: ['closed', 'rejected', 'due'],
  closed: [],
  rejected: [],
};

export function canTransition(from: Status, to: Status): boolean {
  return from === to ? from === 'due' || from === 'inProgress' : ALLOWED[from].includes(to);
}

/**
 * Flags of a service entering `to`: overdue bits are dropped when it leaves Due (spec §4: overdue is a
 * flag of a Due service); a service set back to Due by a person carries "manually" (128).
 */
export function flagsFor(currentF: number, to: Status): number {
  if (to === 'due') {
    return statusOf(currentF) === 'due' ? currentF : ServiceFlag.upcoming | ServiceFlag.manually;
  }
  return STATUS_FLAG[to];
}

/** A date on the wire: Unix seconds or YYYY-MM-DD (spec §5 "Requests use YYYY-MM-DD"). */
export type DateIn = number | string;

const DAY_TEXT = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

/**
 * Start of the fleet-zone day of a date input (DESIGN §2: calendar dates are the start of the day in
 * the fleet time zone); undefined when the text is no valid date.
 */
export function dayOf(tz: number, value: DateIn): number | undefined {
  if (typeof value === 'number') return startOfDay(tz, value);
  const m = DAY_TEXT.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  const local = Date.UTC(y, mo - 1, d) / 1000;
  if (new Date(local * 1000).getUTCDate() !== d) return undefined;
  // Six hours into the local day is inside it whatever the daylight-saving shift.
  return startOfDay(tz, local - tzOffsetMinutes(tz, local) * 60 + 6 * 3600);
}
