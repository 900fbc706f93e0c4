import { type FieldIssue, fromThousandths, localDate, SERVICE_ARCHIVE_RANGE_DAYS } from '@fleetkeep/core';
import { DAY } from '../../context.js';
import { dayOf } from '../services/rules.js';

/**
 * Pure rules of the statistics (PRODUCT.md "Service objects and counters": cost per 1 km = total cost of
 * closed services and fuel over the period ÷ distance driven over the period, "-" when it is 0).
 */

export type Issue = FieldIssue;

/** A period of whole fleet days, both ends included: the start of its first and of its last day. */
export interface Period {
  first: number;
  last: number;
}

function parseDay(tz: number, value: string, field: string): number | Issue {
  const day = /^\d+$/.test(value) ? dayOf(tz, Number(value)) : dayOf(tz, value);
  return day === undefined
    ? { field: `querystring.${field}`, message: 'Expected Unix seconds or YYYY-MM-DD' }
    : day;
}

/**
 * `from`/`to` as the services archive reads them (modules/services/archive.ts): YYYY-MM-DD or Unix
 * seconds, whole days in the fleet zone, `to` not before `from`, at most 366 days apart.
 */
export function parsePeriod(tz: number, from: string, to: string): Period | Issue[] {
  const first = parseDay(tz, from, 'from');
  const last = parseDay(tz, to, 'to');
  const issues = [first, last].filter((d): d is Issue => typeof d !== 'number');
  if (issues.length) return issues;
  const [a, b] = [first as number, last as number];
  if (b < a) return [{ field: 'querystring.to', message: 'Must not be before from' }];
  if (Math.round((b - a) / DAY) > SERVICE_ARCHIVE_RANGE_DAYS)
    return [
      { field: 'querystring.to', message: `The range spans at most ${SERVICE_ARCHIVE_RANGE_DAYS} days` },
    ];
  return { first: a, last: b };
}

/** The period as YYYY-MM-DD in the fleet zone, as the reply echoes it. */
export const periodText = (tz: number, p: Period) => ({
  from: localDate(tz, p.first),
  to: localDate(tz, p.last),
});

/**
 * Distance (or engine time) over a period from the counter history, corrections already taken out:
 * `end`, the last value of the last recorded day up to the period's end, less `base`, the last value
 * of the last day before it, else the first value of the first day in it; 0 without them, never
 * negative.
 */
export function driven(base: number | null, end: number | null): number {
  if (base === null || end === null) return 0;
  return Math.max(end - base, 0);
}

/**
 * Cost per 1 km of a period: (services + fuel) ÷ distance, costs in integer thousandths; null when
 * nothing was driven (the screens show "-"). Rounded to the 3 decimals of spec §9.
 */
export function costPerKm(costThousandths: number, km: number): number | null {
  if (!(km > 0)) return null;
  return Math.round((decimalOf(costThousandths) / km) * 1000) / 1000;
}

/**
 * Core `fromThousandths` without its text round trip for integers, the statistics' every figure (10,000
 * unit rows a reply): an integer's quotient by 1000 is already the double nearest its 3-decimal value,
 * the number `fromThousandths` parses back (up to 2^52).
 */
export function decimalOf(thousandths: number): number {
  return Number.isInteger(thousandths) && Math.abs(thousandths) < EXACT_THOUSANDTHS
    ? thousandths / 1000
    : fromThousandths(thousandths);
}

const EXACT_THOUSANDTHS = 2 ** 52;
