import { ServiceFlag } from './constants.js';
import { addCalendar, type CalendarUnit, localDayNumber, startOfDay } from './timezone.js';

/**
 * Interval status rules (PRODUCT.md "Intervals", "The status engine"; spec §9 "Remaining value"). Pure,
 * shared by the server's engine and the web client.
 *
 * - Remaining = baseline + frequency − current, for mileage (km) and engine hours; for time the due
 *   date = last date + frequency in calendar units of the fleet zone, remaining = due day − today in
 *   local calendar days.
 * - Within advance notice: remaining ≤ notice (notice 0: remaining ≤ 0, exactly at the threshold).
 * - Overdue ("the threshold passed") is STRICT: remaining < 0, i.e. counter > baseline + frequency, or
 *   today (local date) after the due date. At exactly the threshold a service is due, not yet overdue.
 */

export type RuleKind = 'mileage' | 'engineHours' | 'days';

/** The rule columns of an interval (spec §3 names). */
export interface IntervalRule {
  cnme: number;
  cnmd: number;
  cnmo: number;
  cnehe: number;
  cnehd: number;
  cneho: number;
  de: number;
  dd: number;
  du: string;
  do: number;
}

/** An interval with every rule switched off: the defaults of a new interval (spec §5). */
export const INTERVAL_RULES_OFF = Object.freeze({
  cnme: 0,
  cnmd: 0,
  cnmo: 0,
  cnehe: 0,
  cnehd: 0,
  cneho: 0,
  de: 0,
  dd: 0,
  du: 'd',
  do: 0,
} as const satisfies IntervalRule);

/** An assignment's "last service" baseline. */
export interface Baseline {
  lcnm: number;
  lceh: number;
  ltm: number;
}

/** An object's counters; null for drivers and trailers, which have none (time rules only). */
export interface Counters {
  mileage: number | null;
  engineHours: number | null;
}

export interface Evaluation {
  remaining: { mileage: number | null; engineHours: number | null; days: number | null };
  /** Due date of the time rule (Unix seconds, start of the local day), null without one. */
  dueDate: number | null;
  /** Kinds whose remaining value is within their advance notice. */
  notice: RuleKind[];
  /** Kinds whose threshold has passed (strictly). */
  overdue: RuleKind[];
  /** 0, or 4 plus 256/512/1024 for the overdue kinds (spec §4). */
  overdueFlags: number;
  /** When the first reached kind falls due: the due date for time, today for counters; null if none. */
  plannedDate: number | null;
  /** Start of today in the fleet zone. */
  today: number;
}

const KIND_FLAG: Record<RuleKind, number> = {
  mileage: ServiceFlag.overdueByMileage,
  engineHours: ServiceFlag.overdueByEngineHours,
  days: ServiceFlag.overdueByDays,
};
export const OVERDUE_MASK =
  ServiceFlag.overdue |
  ServiceFlag.overdueByMileage |
  ServiceFlag.overdueByEngineHours |
  ServiceFlag.overdueByDays;

const round3 = (v: number) => Math.round(v * 1000) / 1000;

function calendarUnit(du: string): CalendarUnit {
  return du === 'w' || du === 'm' || du === 'y' ? du : 'd';
}

/** Due date of an interval's time rule for a baseline, or null when the rule is off. */
export function dueDate(rule: IntervalRule, baseline: Baseline, tz: number): number | null {
  if (!rule.de || rule.dd <= 0) return null;
  return startOfDay(tz, addCalendar(tz, baseline.ltm, rule.dd, calendarUnit(rule.du)));
}

export function evaluate(
  rule: IntervalRule,
  baseline: Baseline,
  counters: Counters,
  at: number,
  tz: number,
): Evaluation {
  const today = startOfDay(tz, at);
  const mileage =
    rule.cnme && rule.cnmd > 0 && counters.mileage !== null
      ? round3(baseline.lcnm + rule.cnmd - counters.mileage)
      : null;
  const engineHours =
    rule.cnehe && rule.cnehd > 0 && counters.engineHours !== null
      ? round3(baseline.lceh + rule.cnehd - counters.engineHours)
      : null;
  const due = dueDate(rule, baseline, tz);
  const days = due === null ? null : localDayNumber(tz, due) - localDayNumber(tz, at);

  const notice: RuleKind[] = [];
  const overdue: RuleKind[] = [];
  const check = (kind: RuleKind, remaining: number | null, advance: number) => {
    if (remaining === null) return;
    if (remaining <= Math.max(0, advance)) notice.push(kind);
    if (remaining < 0) overdue.push(kind);
  };
  check('mileage', mileage, rule.cnmo);
  check('engineHours', engineHours, rule.cneho);
  check('days', days, rule.do);

  let plannedDate: number | null = null;
  for (const kind of notice) {
    const date = kind === 'days' ? (due as number) : today;
    if (plannedDate === null || date < plannedDate) plannedDate = date;
  }
  const overdueFlags = overdue.reduce((f, k) => f | KIND_FLAG[k], overdue.length ? ServiceFlag.overdue : 0);
  return {
    remaining: { mileage, engineHours, days },
    dueDate: due,
    notice,
    overdue,
    overdueFlags,
    plannedDate,
    today,
  };
}

/**
 * The "expected on" date of a counter-based service: today plus the days the remaining distance takes
 * at the average daily use (rounded up); today once it is reached; null when the use is unknown or 0.
 */
export function forecastDate(
  remainingKm: number | null,
  avgDailyKm: number | null,
  today: number,
  tz = 0,
): number | null {
  if (remainingKm === null || avgDailyKm === null || !(avgDailyKm > 0)) return null;
  if (remainingKm <= 0) return today;
  return addCalendar(tz, today, Math.ceil(remainingKm / avgDailyKm), 'd');
}
