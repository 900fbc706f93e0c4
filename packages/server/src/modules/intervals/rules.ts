import { DAY_SECONDS, startOfDay, tzOffsetMinutes } from '@fleetkeep/core';

/**
 * Date rules of intervals and their baselines (spec §5 "Import: intervals"). The rules across the
 * frequency fields are core's `intervalRuleIssues` (contracts/intervals.ts), shared with the web.
 */

const DAY_TEXT = /^(\d{1,4})-(\d{1,2})-(\d{1,2})$/;

/**
 * A last-service date: Unix seconds, or YYYY-MM-DD text read as the start of that day in the fleet's
 * zone (spec §7 "Requests use YYYY-MM-DD"). Returns the seconds or the reason it is refused.
 */
export function parseDay(value: number | string, tz: number): number | string {
  if (typeof value === 'number') return value;
  const m = DAY_TEXT.exec(value.trim());
  if (!m) return 'Date must be YYYY-MM-DD';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return 'Month must be 1-12';
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCDate() !== day) return 'No such day';
  // Local noon of that day, then its local midnight (core timezone.ts applies daylight saving).
  const local = date.getTime() / 1000 + DAY_SECONDS / 2;
  return startOfDay(tz, local - tzOffsetMinutes(tz, local) * 60);
}

/** Last service date must not be later than today (spec §5 "Import: intervals"). */
export function isFutureDay(ltm: number, tz: number, at: number): boolean {
  return ltm >= startOfDay(tz, at) + DAY_SECONDS;
}
