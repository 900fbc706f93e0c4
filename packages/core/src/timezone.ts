/**
 * The fleet time zone (spec §5 "Time zone"): the low 16 bits of `tz` are the UTC offset in minutes as a
 * signed 16-bit integer; flag 0x08000000 adds the European daylight-saving rule (+60 minutes from the
 * last Sunday of March 01:00 UTC to the last Sunday of October 01:00 UTC); flag 0x04000000 marks the
 * southern hemisphere, where the rule is inverted (the extra hour applies outside that period). Either
 * flag alone turns daylight saving on. Times are Unix seconds.
 */

export const TZ_DST_EUROPE = 0x08000000;
export const TZ_DST_SOUTH = 0x04000000;
export type CalendarUnit = 'd' | 'w' | 'm' | 'y';

const DAY = 86400;

/** Unix seconds of the last Sunday of a month (0-based), 01:00 UTC. */
function lastSunday0100(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1) / 1000;
}

/** UTC offset in minutes at a moment. */
export function tzOffsetMinutes(tz: number, at: number): number {
  const base = (tz << 16) >> 16;
  const south = (tz & TZ_DST_SOUTH) !== 0;
  if (!south && (tz & TZ_DST_EUROPE) === 0) return base;
  const { start, end } = summerOf(at);
  const summer = at >= start && at < end;
  return summer !== south ? base + 60 : base;
}

/** A UTC year [from, to) and its European summer [start, end), in Unix seconds. */
interface SummerWindow {
  from: number;
  to: number;
  start: number;
  end: number;
}

/** Summer windows by year, and the one used last: the status engine asks for thousands of moments. */
const summers = new Map<number, SummerWindow>();
let lastSummer: SummerWindow = { from: 0, to: 0, start: 0, end: 0 };
const SUMMERS_KEPT = 400;

function summerOf(at: number): SummerWindow {
  if (at >= lastSummer.from && at < lastSummer.to) return lastSummer;
  const year = new Date(at * 1000).getUTCFullYear();
  let found = summers.get(year);
  if (!found) {
    if (summers.size >= SUMMERS_KEPT) summers.clear();
    found = {
      from: Date.UTC(year, 0, 1) / 1000,
      to: Date.UTC(year + 1, 0, 1) / 1000,
      start: lastSunday0100(year, 2),
      end: lastSunday0100(year, 9),
    };
    summers.set(year, found);
  }
  lastSummer = found;
  return found;
}

/** Local wall-clock seconds (as if UTC) back to Unix seconds, using the offset in force then. */
function fromLocal(tz: number, local: number, hint: number): number {
  const guess = local - tzOffsetMinutes(tz, hint) * 60;
  return local - tzOffsetMinutes(tz, guess) * 60;
}

/** Unix seconds of local midnight of the day containing `at`. */
export function startOfDay(tz: number, at: number): number {
  const local = at + tzOffsetMinutes(tz, at) * 60;
  return fromLocal(tz, Math.floor(local / DAY) * DAY, at);
}

/** The local calendar date of `at` as YYYY-MM-DD. */
export function localDate(tz: number, at: number): string {
  return new Date((at + tzOffsetMinutes(tz, at) * 60) * 1000).toISOString().slice(0, 10);
}

/** Local calendar day number (days since 1970-01-01 in the fleet zone); differences count days. */
export function localDayNumber(tz: number, at: number): number {
  return Math.floor((at + tzOffsetMinutes(tz, at) * 60) / DAY);
}

/**
 * `at` moved by n calendar units in the fleet zone, keeping the local time of day; months and years
 * clamp to the end of the month (Jan 31 + 1 m = Feb 28/29).
 */
export function addCalendar(tz: number, at: number, n: number, unit: CalendarUnit): number {
  const localMs = (at + tzOffsetMinutes(tz, at) * 60) * 1000;
  const d = new Date(localMs);
  const timeOfDay = localMs - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  let y = d.getUTCFullYear();
  let m = d.getUTCMonth();
  let day = d.getUTCDate();
  if (unit === 'd' || unit === 'w') {
    const shifted = new Date(Date.UTC(y, m, day + n * (unit === 'w' ? 7 : 1)));
    y = shifted.getUTCFullYear();
    m = shifted.getUTCMonth();
    day = shifted.getUTCDate();
  } else {
    const months = y * 12 + m + n * (unit === 'y' ? 12 : 1);
    y = Math.floor(months / 12);
    m = months - y * 12;
    day = Math.min(day, new Date(Date.UTC(y, m + 1, 0)).getUTCDate());
  }
  return fromLocal(tz, (Date.UTC(y, m, day) + timeOfDay) / 1000, at);
}
