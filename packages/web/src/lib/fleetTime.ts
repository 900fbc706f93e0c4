import { formatFleetTime, viewerOffsetMinutes } from '@fleetkeep/core';
import { dayjsLocale } from '../i18n/index.ts';

/**
 * One clock (docs/product.md "Numbers, money and times"): a time of a fleet's records (a notification,
 * a delivery, an audit row) on the fleet's clock, in the user's date and time formats, with the zone
 * named when the browser's clock differs from the fleet's at that moment: '05.03.2026 02:30 (UTC+3)'.
 */
export function fleetTime(
  unixSeconds: number,
  tz: number | null | undefined,
  settings: { dateFormat?: string | null; timeFormat?: string | null },
): string {
  return formatFleetTime(
    unixSeconds,
    tz ?? 0,
    settings.dateFormat || 'DD.MM.YYYY',
    settings.timeFormat || 'HH:mm',
    dayjsLocale(),
    viewerOffsetMinutes(unixSeconds),
  );
}
