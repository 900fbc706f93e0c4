import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { tzOffsetMinutes } from '../timezone.js';

/**
 * Date display of spec §5 and §9: the user's date format (settings `dateFormat`, default DD.MM.YYYY) and
 * time format (`timeFormat`, default HH:mm). Month names ('DD MMM YYYY') come from the dayjs locale of
 * the given language, which the caller loads (the web on demand, the server when it first needs the
 * language). The formats a user may choose are SETTINGS_DATE_FORMATS and SETTINGS_TIME_FORMATS of the
 * user contracts.
 */

dayjs.extend(utc);

/** A Unix time (seconds) in the user's date format, on the clock of this process (the browser's zone). */
export function formatDate(unixSeconds: number, dateFormat: string, locale = 'en'): string {
  return dayjs.unix(unixSeconds).locale(locale).format(dateFormat);
}

/** A Unix time with date and time, on the clock of this process (the browser's zone). */
export function formatDateTime(
  unixSeconds: number,
  dateFormat: string,
  timeFormat: string,
  locale = 'en',
): string {
  return dayjs.unix(unixSeconds).locale(locale).format(`${dateFormat} ${timeFormat}`);
}

/** Requests use YYYY-MM-DD (spec §5). */
export function requestDate(unixSeconds: number): string {
  return dayjs.unix(unixSeconds).format('YYYY-MM-DD');
}

/** The wall clock of the fleet zone (core timezone.ts) at `unixSeconds`, as a dayjs in UTC mode. */
function fleetClock(unixSeconds: number, tz: number) {
  return dayjs.utc((unixSeconds + tzOffsetMinutes(tz, unixSeconds) * 60) * 1000);
}

/**
 * A Unix time as its calendar day in the fleet's zone (spec §5 "Time zone"), in the user's date format:
 * the same day whatever the zone of the browser or the server.
 */
export function formatFleetDate(unixSeconds: number, tz: number, dateFormat: string, locale = 'en'): string {
  return fleetClock(unixSeconds, tz).locale(locale).format(dateFormat);
}

/** A Unix time with date and time on the fleet's clock. */
export function formatFleetDateTime(
  unixSeconds: number,
  tz: number,
  dateFormat: string,
  timeFormat: string,
  locale = 'en',
): string {
  return fleetClock(unixSeconds, tz).locale(locale).format(`${dateFormat} ${timeFormat}`);
}

/** A calendar day given as YYYY-MM-DD (a request date, spec §5) in the user's date format. */
export function formatCalendarDay(day: string, dateFormat: string, locale = 'en'): string {
  return dayjs.utc(day).locale(locale).format(dateFormat);
}

/**
 * The name of the fleet's zone at a moment (docs/product.md "Numbers, money and times"): its UTC offset
 * then, daylight saving included: 'UTC', 'UTC+3', 'UTC−5', 'UTC+5:30'.
 */
export function fleetZoneLabel(tz: number, unixSeconds: number): string {
  const offset = tzOffsetMinutes(tz, unixSeconds);
  if (offset === 0) return 'UTC';
  const abs = Math.abs(offset);
  const minutes = abs % 60;
  const hours = (abs - minutes) / 60;
  return `UTC${offset < 0 ? '\u2212' : '+'}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/** The UTC offset in minutes of this process's clock (the browser's zone) at a moment. */
export function viewerOffsetMinutes(unixSeconds: number): number {
  const offset = -new Date(unixSeconds * 1000).getTimezoneOffset();
  return offset === 0 ? 0 : offset;
}

/**
 * A time of a fleet's records as every screen, mail and message shows it (docs/product.md "Numbers,
 * money and times"): on the fleet's clock in the user's date and time formats, followed by the zone's
 * name when the reader's clock differs from the fleet's at that moment. `viewerOffset` is the reader's UTC
 * offset in minutes then (`viewerOffsetMinutes` in a browser); null when the reader's clock is unknown
 * (an e-mail, a bot message), which always names the zone.
 */
export function formatFleetTime(
  unixSeconds: number,
  tz: number,
  dateFormat: string,
  timeFormat: string,
  locale: string,
  viewerOffset: number | null,
): string {
  const text = formatFleetDateTime(unixSeconds, tz, dateFormat, timeFormat, locale);
  if (viewerOffset === tzOffsetMinutes(tz, unixSeconds)) return text;
  return `${text} (${fleetZoneLabel(tz, unixSeconds)})`;
}
