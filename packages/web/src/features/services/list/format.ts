import { formatDate, localDate } from '@fleetkeep/core';
import dayjs from 'dayjs';

/** Display helpers of the services screens (spec §9 numbers; dates are fleet-zone calendar days). */

/**
 * A service date (Unix seconds at the start of a fleet-zone day) in the user's date format: the fleet's
 * calendar day, whatever the browser's zone.
 */
export function formatDay(unix: number, tz: number, dateFormat: string, locale: string): string {
  return formatDate(dayjs(localDate(tz, unix)).unix(), dateFormat, locale);
}

/** A calendar day given as YYYY-MM-DD in the user's date format. */
export function formatDayText(day: string, dateFormat: string, locale: string): string {
  return formatDate(dayjs(day).unix(), dateFormat, locale);
}
