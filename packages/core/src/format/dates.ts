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
