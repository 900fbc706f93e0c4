/** Spec §5 "Dates and times": date picker input YYYY-M-D, requests YYYY-MM-DD and HH:mm:ss. */

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Days in a month of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The default input format YYYY-M-D: a year of at most 4 digits, a month 1-12 and a day 1-31 that exists
 * in that month. Leading zeros are allowed ('2026-03-04'); anything else is null.
 */
export function parseDateInput(text: string): CalendarDate | null {
  const m = /^\s*(\d{1,4})-(\d{1,2})-(\d{1,2})\s*$/.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  if (day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

const TOKENS = /(YYYY|MMM|MM|DD)/;
const FORMAT_TOKENS = ['YYYY', 'MMM', 'MM', 'DD'];

const validDate = (year: number, month: number, day: number): CalendarDate | null =>
  year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
    ? { year, month, day }
    : null;

/**
 * A date typed in the format the field shows (the user's date format of the settings, spec §5: one of
 * DD.MM.YYYY, DD MMM YYYY, YYYY-MM-DD, MM-DD-YYYY, DD-MM-YYYY), so that the field never switches format
 * while it is edited. Any run of separators (space, dot, dash, slash) matches any other; day
 * and month may leave out the leading zero; MMM matches one of `monthNames` (the short month names of the
 * page language) whatever the case and a trailing dot. The spec's input YYYY-M-D is always accepted too.
 */
export function parseDateInFormat(
  text: string,
  format: string,
  monthNames: readonly string[] = [],
): CalendarDate | null {
  const iso = parseDateInput(text);
  if (iso) return iso;
  const parts = format.split(TOKENS).filter((p) => p !== '');
  const order: string[] = [];
  const pattern = parts
    .map((p) => {
      if (!FORMAT_TOKENS.includes(p)) return '[\\s./-]+';
      order.push(p);
      if (p === 'YYYY') return '(\\d{4})';
      if (p === 'MMM') return '([^\\s\\d./-]+)\\.?';
      return '(\\d{1,2})';
    })
    .join('');
  const m = new RegExp(`^\\s*${pattern}\\s*$`, 'u').exec(text);
  if (!m) return null;
  let year = 0;
  let month = 0;
  let day = 0;
  order.forEach((token, k) => {
    const v = m[k + 1] ?? '';
    if (token === 'YYYY') year = Number(v);
    else if (token === 'MM') month = Number(v);
    else if (token === 'DD') day = Number(v);
    else {
      const name = v.toLocaleLowerCase();
      month = monthNames.findIndex((n) => n.toLocaleLowerCase().replace(/\.$/, '') === name) + 1;
    }
  });
  return validDate(year, month, day);
}

/** YYYY-MM-DD, as requests send dates. */
export function requestDateOf(date: CalendarDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** The default input text YYYY-M-D of a date. */
export function inputDateOf(date: CalendarDate): string {
  return `${date.year}-${date.month}-${date.day}`;
}

/** A request date YYYY-MM-DD back to a calendar date (null when malformed). */
export function parseRequestDate(text: string): CalendarDate | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseDateInput(text) : null;
}

/** Time pickers run from 00:00:00 through 23:59:00 (spec §5). */
export const TIME_MIN = '00:00:00';
export const TIME_MAX = '23:59:00';

/** Typed time 'H:mm', 'HH:mm' or 'HH:mm:00' → 'HH:mm:ss' for requests; null outside 00:00:00-23:59:00. */
export function parseTimeInput(text: string): string | null {
  const m = /^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*$/.exec(text);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  const s = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 23 || min > 59 || s !== 0) return null;
  return `${pad(h)}:${pad(min)}:00`;
}

/** The options of a time picker, every `stepMinutes` from 00:00:00 through 23:59:00, as HH:mm:ss. */
export function timeOptions(stepMinutes = 30): string[] {
  const step = Math.max(1, Math.trunc(stepMinutes));
  const out: string[] = [];
  for (let m = 0; m < 24 * 60; m += step) out.push(`${pad(Math.floor(m / 60))}:${pad(m % 60)}:00`);
  if (out[out.length - 1] !== TIME_MAX) out.push(TIME_MAX);
  return out;
}
