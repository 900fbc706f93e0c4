import type { ReportGroup } from './contracts/reports.js';

/**
 * Pure rules of the reports (PRODUCT.md "Reports"; contracts/reports.ts decision 4): the time bucket a
 * fleet day falls in. Days are calendar days of the fleet zone as YYYY-MM-DD texts, so a bucket never
 * depends on a daylight-saving shift; weeks are ISO weeks (Monday first); a bucket is named by its first
 * day, clipped to the period's first day.
 */

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

function dateOf(text: string): Date {
  const m = DAY_TEXT.exec(text);
  if (!m) throw new Error(`Not a YYYY-MM-DD day: ${text}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

const textOf = (d: Date) => d.toISOString().slice(0, 10);

/** The Monday of the ISO week of a day. */
export function isoWeekStart(day: string): string {
  const d = dateOf(day);
  const back = (d.getUTCDay() + 6) % 7;
  return textOf(new Date(d.getTime() - back * MS_PER_DAY));
}

/**
 * The bucket of `day` under `group`: its first day (YYYY-MM-DD), not before `from` (the period's first
 * day, so that a period starting mid-month has its first bucket start on `from`); null for `none`.
 */
export function reportBucket(day: string, group: ReportGroup, from: string): string | null {
  let start: string;
  switch (group) {
    case 'none':
      return null;
    case 'day':
      start = textOf(dateOf(day));
      break;
    case 'week':
      start = isoWeekStart(day);
      break;
    case 'month':
      start = `${day.slice(0, 7)}-01`;
      dateOf(start);
      break;
  }
  return start < from ? from : start;
}

/** The buckets of a period in order (every bucket, empty or not): first days, YYYY-MM-DD. */
export function reportBuckets(from: string, to: string, group: ReportGroup): string[] {
  if (group === 'none') return [];
  const out: string[] = [];
  const end = dateOf(to).getTime();
  for (let t = dateOf(from).getTime(); t <= end; t += MS_PER_DAY) {
    const b = reportBucket(textOf(new Date(t)), group, from) as string;
    if (out[out.length - 1] !== b) out.push(b);
  }
  return out;
}
