import { startOfDay, tzOffsetMinutes } from '@fleetkeep/core';

/**
 * Date rules of services (spec §4, PRODUCT.md "Services"). Pure. The status rules (flags, transitions)
 * are core's `service-status.ts`, shared with the screens.
 */

export {
  canTransition,
  FINISHED_MASK,
  flagsFor,
  isArchived,
  type ServiceStatus as Status,
  STATUS_FLAG,
  statusFromFlag,
  statusOf,
} from '@fleetkeep/core';

/** A date on the wire: Unix seconds or YYYY-MM-DD (spec §5 "Requests use YYYY-MM-DD"). */
export type DateIn = number | string;

const DAY_TEXT = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

/**
 * Start of the fleet-zone day of a date input (DESIGN §2: calendar dates are the start of the day in
 * the fleet time zone); undefined when the text is no valid date.
 */
export function dayOf(tz: number, value: DateIn): number | undefined {
  if (typeof value === 'number') return startOfDay(tz, value);
  const m = DAY_TEXT.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  const local = Date.UTC(y, mo - 1, d) / 1000;
  if (new Date(local * 1000).getUTCDate() !== d) return undefined;
  // Six hours into the local day is inside it whatever the daylight-saving shift.
  return startOfDay(tz, local - tzOffsetMinutes(tz, local) * 60 + 6 * 3600);
}
