import { SERVICE_ARCHIVE_RANGE_DAYS } from '@fleetkeep/core';

/**
 * The period of a statistics screen (spec §9 "Time ranges": week 7 days, month 30, quarter 90, year 365;
 * longer ranges 3, 6 and 12 months; or chosen by hand), every named one ending today in the fleet's zone.
 * Used by the dashboard and the fuel fillings list. Pure: the days are YYYY-MM-DD fleet days.
 */

export const PERIOD_KINDS = ['week', 'month', 'quarter', 'year', 'm3', 'm6', 'm12', 'custom'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];
export const DEFAULT_PERIOD: Exclude<PeriodKind, 'custom'> = 'month';
const DAYS: Partial<Record<PeriodKind, number>> = { week: 7, month: 30, quarter: 90, year: 365 };
const MONTHS: Partial<Record<PeriodKind, number>> = { m3: 3, m6: 6, m12: 12 };

/**
 * The longest period the server takes: the last day at most this many days after the first (the fleet
 * statistics and the fuel list share the archive's limit, 366; core FUEL_RANGE_DAYS is the same constant).
 */
export const PERIOD_DAYS_MAX = SERVICE_ARCHIVE_RANGE_DAYS;

export interface Period {
  kind: PeriodKind;
  /** First and last fleet day, YYYY-MM-DD, both included. */
  from: string;
  to: string;
}

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD text; null when it names no real day. */
export function dayNumber(text: string): number | null {
  const m = DAY_TEXT.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return date.getTime() / DAY_MS;
}

/** The YYYY-MM-DD text of a day number (days since 1970-01-01). */
export const dayText = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);

/**
 * The days of a named period ending `today` (a fleet day): N days back for week … year (today counts);
 * for N months, from the day after the same day N months earlier (the month's last day when it is shorter).
 */
export function periodRange(
  kind: Exclude<PeriodKind, 'custom'>,
  today: string,
): { from: string; to: string } {
  const end = dayNumber(today) ?? 0;
  const days = DAYS[kind];
  if (days !== undefined) return { from: dayText(end - days + 1), to: today };
  const months = MONTHS[kind] ?? 1;
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const back = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth() + 1, 0)).getUTCDate();
  back.setUTCDate(Math.min(d, last));
  return { from: dayText(back.getTime() / DAY_MS + 1), to: today };
}

/** The period of the URL (`period=week|…|custom`, `from`, `to` for a custom one); default a month. */
export function decodePeriod(params: URLSearchParams, today: string): Period {
  const raw = params.get('period') ?? '';
  const kind = (PERIOD_KINDS as readonly string[]).includes(raw) ? (raw as PeriodKind) : DEFAULT_PERIOD;
  if (kind !== 'custom') return { kind, ...periodRange(kind, today) };
  const fallback = periodRange(DEFAULT_PERIOD, today);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    kind,
    from: dayNumber(from) === null ? fallback.from : from,
    to: dayNumber(to) === null ? fallback.to : to,
  };
}

/** Writes a period into a copy of the query (a named one drops `from`/`to`; the default drops all). */
export function encodePeriod(params: URLSearchParams, period: Period): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('from');
  next.delete('to');
  if (period.kind === DEFAULT_PERIOD) next.delete('period');
  else next.set('period', period.kind);
  if (period.kind === 'custom') {
    next.set('from', period.from);
    next.set('to', period.to);
  }
  return next;
}

/**
 * The period after choosing another kind: a named one gets its days ending today, custom keeps the days
 * shown so far (the user starts from them).
 */
export function withKind(period: Period, kind: PeriodKind, today: string): Period {
  return kind === 'custom' ? { ...period, kind } : { kind, ...periodRange(kind, today) };
}

/** The period after picking its first or last day by hand: a custom one. */
export function withDay(period: Period, key: 'from' | 'to', value: string): Period {
  return { ...period, kind: 'custom', [key]: value };
}

export type PeriodError = 'order' | 'tooLong';

/** The server takes whole fleet days, first ≤ last, at most PERIOD_DAYS_MAX (366) after the first. */
export function periodError(from: string, to: string): PeriodError | null {
  const a = dayNumber(from);
  const b = dayNumber(to);
  if (a === null || b === null) return null;
  if (a > b) return 'order';
  if (b - a > PERIOD_DAYS_MAX) return 'tooLong';
  return null;
}
