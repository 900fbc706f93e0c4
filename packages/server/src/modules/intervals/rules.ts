import { DAY_SECONDS, startOfDay, tzOffsetMinutes } from '@fleetkeep/core';
import type { Issue } from '../lineitems/library.js';

/** Thresholds of an interval (spec §3 "Interval"; PRODUCT.md "Intervals"). */
export interface Thresholds {
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

/** Days of one time-frequency unit, as spec §9 counts its time ranges (week 7, month 30, year 365). */
export const DAYS_PER_UNIT: Readonly<Record<string, number>> = { d: 1, w: 7, m: 30, y: 365 };

const NOTICE = 'Advance notice must be smaller than the frequency';
const POSITIVE = 'Frequency must be a positive integer';

/**
 * Cross-field rules of PRODUCT.md "Intervals": at least one of mileage, engine hours or time; an enabled
 * frequency is positive; its advance notice is smaller than the frequency (for time: notice in days
 * against the frequency in days). Field types and ranges are the schema's.
 */
export function thresholdIssues(v: Thresholds, prefix: string): Issue[] {
  const issues: Issue[] = [];
  if (!v.cnme && !v.cnehe && !v.de)
    issues.push({ field: `${prefix}.cnme`, message: 'Enable at least one of mileage, engine hours or time' });
  const counter = (enabled: number, freq: number, notice: number, f: string, o: string) => {
    if (!enabled) return;
    if (!(freq >= 1)) issues.push({ field: `${prefix}.${f}`, message: POSITIVE });
    else if (notice >= freq) issues.push({ field: `${prefix}.${o}`, message: NOTICE });
  };
  counter(v.cnme, v.cnmd, v.cnmo, 'cnmd', 'cnmo');
  counter(v.cnehe, v.cnehd, v.cneho, 'cnehd', 'cneho');
  if (v.de) {
    if (!(v.dd >= 1)) issues.push({ field: `${prefix}.dd`, message: POSITIVE });
    else if (v.do >= v.dd * (DAYS_PER_UNIT[v.du] ?? 1))
      issues.push({ field: `${prefix}.do`, message: NOTICE });
  }
  return issues;
}

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
