import { TZ_DST_EUROPE, TZ_DST_SOUTH, tzOffsetMinutes } from './timezone.js';

/**
 * The schedule of a report mail (PRODUCT.md "Reports": report mails, daily, weekly, monthly
 * item 5; wire shape in contracts/reportmails.ts). Pure: a send slot is a wall-clock hour in the fleet's
 * time zone (spec §5 "Time zone", core timezone.ts) on the days the schedule names, and each slot covers
 * the finished period before its day (decision 3 of the contract).
 *
 * Daylight saving: an hour that does not exist on the day the clocks go forward is sent at the same
 * instant as the hour before the change (02:00 that never happens is sent at 03:00 summer time); an
 * hour that happens twice on the day the clocks go back is sent once, at its first occurrence.
 */

export const REPORT_MAIL_EVERY = ['daily', 'weekly', 'monthly'] as const;
export type ReportMailEvery = (typeof REPORT_MAIL_EVERY)[number];

/** `monthday` value meaning the last day of the month. */
export const MONTHDAY_LAST = 'last';

export interface ReportMailSchedule {
  every: ReportMailEvery;
  /** ISO weekday 1 (Monday) … 7 (Sunday); used by `weekly`. */
  weekday: number;
  /** 1 … 28 or 'last'; used by `monthly`. */
  monthday: number | typeof MONTHDAY_LAST;
  /** Local hour 0 … 23 in the fleet zone. */
  hour: number;
}

const DAY = 86400;
/** More days than any schedule leaves between two slots (a month and a DST change). */
const SEARCH_DAYS = 40;

/** Unix seconds of a local wall-clock time (seconds since 1970 as if UTC) in the fleet zone. */
export function localToUnix(tz: number, local: number): number {
  const base = (tz << 16) >> 16;
  const dst = (tz & (TZ_DST_EUROPE | TZ_DST_SOUTH)) !== 0;
  const offsets = dst ? [base, base + 60] : [base];
  const fits = offsets.map((o) => local - o * 60).filter((at) => at + tzOffsetMinutes(tz, at) * 60 === local);
  // Twice (clocks went back): the first. Never (clocks went forward): read with the offset before.
  if (fits.length) return Math.min(...fits);
  return local - base * 60;
}

/** Local day number (days since 1970-01-01 in the fleet zone) of a moment. */
const localDay = (tz: number, at: number) => Math.floor((at + tzOffsetMinutes(tz, at) * 60) / DAY);

/** True when a local day (days since 1970-01-01) is a send day of the schedule. */
export function isSendDay(s: ReportMailSchedule, day: number): boolean {
  const d = new Date(day * DAY * 1000);
  if (s.every === 'daily') return true;
  if (s.every === 'weekly') return ((d.getUTCDay() + 6) % 7) + 1 === s.weekday;
  if (s.monthday === MONTHDAY_LAST) return new Date((day + 1) * DAY * 1000).getUTCDate() === 1;
  return d.getUTCDate() === s.monthday;
}

/** The send slot (Unix seconds) of a local day. */
export const slotOfDay = (tz: number, s: ReportMailSchedule, day: number): number =>
  localToUnix(tz, day * DAY + s.hour * 3600);

/** The first send slot strictly after `after` (Unix seconds). */
export function nextReportMailDue(tz: number, s: ReportMailSchedule, after: number): number {
  const first = localDay(tz, after) - 1;
  for (let day = first; day <= first + SEARCH_DAYS; day++) {
    if (!isSendDay(s, day)) continue;
    const slot = slotOfDay(tz, s, day);
    if (slot > after) return slot;
  }
  throw new Error('report mail schedule has no slot');
}

/**
 * The latest slot at or before `at`, starting the search from `due` (a slot that was missed while no
 * server ran): after an outage one mail is sent, for the latest period, not one per missed slot.
 */
export function latestReportMailSlot(tz: number, s: ReportMailSchedule, due: number, at: number): number {
  let slot = due;
  for (let next = nextReportMailDue(tz, s, slot); next <= at; next = nextReportMailDue(tz, s, slot))
    slot = next;
  return slot;
}

const dayText = (day: number) => new Date(day * DAY * 1000).toISOString().slice(0, 10);

/**
 * The period a send covers, as fleet-local days YYYY-MM-DD (both included), decided by the schedule and
 * the local day of the send (its slot, or the moment of a "send now"): `daily` the day before, `weekly`
 * the seven days before (a Monday send covers the ISO week before), `monthly` the calendar month before.
 */
export function reportMailPeriod(
  tz: number,
  every: ReportMailEvery,
  at: number,
): { from: string; to: string } {
  const day = localDay(tz, at);
  if (every === 'daily') return { from: dayText(day - 1), to: dayText(day - 1) };
  if (every === 'weekly') return { from: dayText(day - 7), to: dayText(day - 1) };
  const d = new Date(day * DAY * 1000);
  const firstOfMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000 / DAY;
  const firstOfPrevious = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1) / 1000 / DAY;
  return { from: dayText(firstOfPrevious), to: dayText(firstOfMonth - 1) };
}
