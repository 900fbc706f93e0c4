import { z } from 'zod';
import { Limits } from '../constants.js';
import type { IntervalRule } from '../status.js';
import { acceptingReadOnly, counter, flag, id, objectType, unixTime } from './common.js';
import { LINE_ITEMS_MAX, lineItemLineInput, lineWire } from './lineitems.js';
import type { FieldIssue } from './refusal.js';

/**
 * Wire contracts of the intervals API (spec §3 "Interval", §5 "Import: intervals", §7 "Intervals";
 * DESIGN §5; PRODUCT.md "Intervals"). Mileage values are km and engine hours hours on the wire, as
 * stored; the client converts for fleets measured in miles.
 */

/** Time frequencies have at most three digits (PRODUCT.md "Intervals", spec §5 "Import: intervals"). */
export const INTERVAL_TIME_FREQUENCY_MAX = 999;
/** Objects assigned in one request (an interval's `u`, `PUT …/units`, one object's `bases`). */
export const INTERVAL_ASSIGNMENTS_MAX = 10000;
/** Rows of one intervals import. */
export const INTERVAL_IMPORT_MAX = 1000;

/** Units of the time frequency: days, weeks, months, years (spec §3 "unit suffix such as d"). */
export const INTERVAL_TIME_UNITS = ['d', 'w', 'm', 'y'] as const;
export const intervalTimeUnit = z.enum(INTERVAL_TIME_UNITS);
export type IntervalTimeUnit = z.infer<typeof intervalTimeUnit>;
/** Days of one time-frequency unit, as spec §9 counts its time ranges (week 7, month 30, year 365). */
export const DAYS_PER_UNIT: Readonly<Record<IntervalTimeUnit, number>> = { d: 1, w: 7, m: 30, y: 365 };

const frequency = z.number().int().min(0).max(Limits.intSigned);
const notice = z.number().int().min(0).max(Limits.intSigned);
const intervalName = z.string().trim().min(1).max(Limits.stringMax);
const executions = z.number().int().min(0).max(Limits.intSigned);

/** The rule fields of an interval: on/off flag, frequency and advance notice per kind (spec §3). */
export const intervalThresholds = z.object({
  description: z.string().max(Limits.descriptionMax),
  cnme: flag.describe('Frequency by mileage on'),
  cnmd: frequency.describe('Mileage frequency, km'),
  cnmo: notice.describe('Mileage advance notice, km'),
  cnehe: flag.describe('Frequency by engine hours on'),
  cnehd: frequency.describe('Engine-hours frequency, hours'),
  cneho: notice.describe('Engine-hours advance notice, hours'),
  de: flag.describe('Frequency by time on'),
  dd: z
    .number()
    .int()
    .min(0)
    .max(INTERVAL_TIME_FREQUENCY_MAX, 'Time frequency has at most three digits')
    .describe('Time frequency, in units of du'),
  du: intervalTimeUnit.describe('Unit of dd: d days, w weeks, m months, y years'),
  do: notice.describe('Time advance notice, days'),
});
export type IntervalThresholds = z.infer<typeof intervalThresholds>;

/** One assignment entry of `u` (DESIGN §5); absent baselines default to the object's counters and today. */
export const intervalAssignmentInput = z.object({
  id: id.describe('Object id'),
  t: objectType.describe('Object type: u unit, d driver, t trailer'),
  lcnm: counter.optional().describe('Last-service mileage, km'),
  lceh: counter.optional().describe('Last-service engine hours'),
  ltm: unixTime.optional().describe('Last-service date, Unix seconds'),
  cnt: executions.optional().describe('Executions'),
});
export type IntervalAssignmentInput = z.infer<typeof intervalAssignmentInput>;

const lines = z.array(lineItemLineInput).max(LINE_ITEMS_MAX);
const assignments = z.array(intervalAssignmentInput).max(INTERVAL_ASSIGNMENTS_MAX);

export const intervalCreateBody = intervalThresholds
  .partial()
  .extend({ n: intervalName, li: lines.optional(), u: assignments.optional() });
export type IntervalCreateBody = z.infer<typeof intervalCreateBody>;

/**
 * `PUT /fleets/{fid}/intervals/{id}`: any of the fields; absent ones stay, `li` and `u` replace the
 * lists when given. The interval as read is accepted: `id` and `tm` are ignored, the creator `c` is
 * refused unless equal to the stored one.
 */
export const intervalUpdateBody = acceptingReadOnly(
  intervalThresholds.partial().extend({
    n: intervalName.optional(),
    li: lines.optional(),
    u: assignments.optional(),
  }),
  ['id', 'tm'],
  ['c'],
);
export type IntervalUpdateBody = z.infer<typeof intervalUpdateBody>;

/** `PUT /fleets/{fid}/intervals/{id}/units`: the complete list of assigned objects. */
export const intervalUnitsBody = z.object({ units: assignments });

/**
 * An assignment of the intervals import (spec §5 "Import: intervals"): last values integers, the last
 * service date as Unix seconds or YYYY-MM-DD text.
 */
export const intervalImportAssignment = z.object({
  id,
  t: objectType.default('u'),
  lcnm: z.number().int().min(0).max(Limits.intSigned).optional(),
  lceh: z.number().int().min(0).max(Limits.intSigned).optional(),
  ltm: z.union([unixTime, z.string().max(32)]).optional(),
  cnt: executions.optional(),
});
export const intervalImportRow = intervalThresholds.partial().extend({
  n: intervalName,
  li: lines.optional(),
  u: z.array(intervalImportAssignment).max(INTERVAL_ASSIGNMENTS_MAX).optional(),
});
export type IntervalImportRow = z.infer<typeof intervalImportRow>;
export const intervalImportBody = z.object({
  intervals: z.array(intervalImportRow).max(INTERVAL_IMPORT_MAX),
});

/** One baseline of `PUT /fleets/{fid}/{units|drivers|trailers}/{id}/bases`; absent values stay. */
export const intervalBaseInput = z.object({
  ivid: id.describe('Interval id'),
  lcnm: counter.optional().describe('Last-service mileage, km'),
  lceh: counter.optional().describe('Last-service engine hours'),
  ltm: unixTime.optional().describe('Last-service date, Unix seconds'),
  cnt: executions.optional().describe('Executions'),
});
export type IntervalBaseInput = z.infer<typeof intervalBaseInput>;
export const intervalBasesBody = z.object({
  bases: z.array(intervalBaseInput).max(INTERVAL_ASSIGNMENTS_MAX),
});

// --- replies ---

const baseline = {
  lcnm: z.number().describe('Last-service mileage, km'),
  lceh: z.number().describe('Last-service engine hours'),
  ltm: z.number().int().describe('Last-service date, Unix seconds'),
  cnt: z.number().int().describe('Executions'),
};

/** An assignment entry of an interval's `u` (DESIGN §5). */
export const intervalAssignmentWire = z.object({
  id: id.describe('Object id'),
  t: objectType.describe('Object type: u unit, d driver, t trailer'),
  ...baseline,
});
export type IntervalAssignmentWire = z.infer<typeof intervalAssignmentWire>;

/** One object's baseline for an interval, as `GET …/{units|drivers|trailers}/{id}/bases` lists it. */
export const intervalBaseWire = z.object({ ivid: id.describe('Interval id'), ...baseline });
export type IntervalBaseWire = z.infer<typeof intervalBaseWire>;

/** An interval (spec §3 "Interval"). */
export const intervalWire = intervalThresholds.extend({
  id,
  n: z.string().describe('Name'),
  description: z.string(),
  u: z.array(intervalAssignmentWire).describe('Assigned objects with their baselines'),
  li: z.array(lineWire).describe('Line items copied into the services the interval creates'),
  c: z.number().int().nullable().describe('Creator user id'),
  tm: z.number().int().describe('Last change, Unix seconds'),
});
export type IntervalWire = z.infer<typeof intervalWire>;

export const intervalListReply = z.object({ intervals: z.array(intervalWire) });
export const intervalUnitsReply = z.object({ units: z.array(intervalAssignmentWire) });
export const intervalBasesReply = z.object({ bases: z.array(intervalBaseWire) });

// --- rules across fields ---

const NOTICE = 'Advance notice must be smaller than the frequency';
const POSITIVE = 'Frequency must be a positive integer';

/** The rule fields as the cross-field check reads them, from a request or a stored row (core `status.ts`). */
export type IntervalRules = IntervalRule;

/**
 * Cross-field rules of PRODUCT.md "Intervals": at least one of mileage, engine hours or time; an enabled
 * frequency is positive; its advance notice is smaller than the frequency (for time: notice in days
 * against the frequency in days). Field types and ranges are the schema's. Issues name fields under
 * `prefix` (`body.cnmd`).
 */
export function intervalRuleIssues(v: IntervalRules, prefix: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (!v.cnme && !v.cnehe && !v.de)
    issues.push({ field: `${prefix}.cnme`, message: 'Enable at least one of mileage, engine hours or time' });
  const counterRule = (enabled: number, freq: number, advance: number, f: string, o: string) => {
    if (!enabled) return;
    if (!(freq >= 1)) issues.push({ field: `${prefix}.${f}`, message: POSITIVE });
    else if (advance >= freq) issues.push({ field: `${prefix}.${o}`, message: NOTICE });
  };
  counterRule(v.cnme, v.cnmd, v.cnmo, 'cnmd', 'cnmo');
  counterRule(v.cnehe, v.cnehd, v.cneho, 'cnehd', 'cneho');
  if (v.de) {
    if (!(v.dd >= 1)) issues.push({ field: `${prefix}.dd`, message: POSITIVE });
    else if (v.do >= v.dd * (DAYS_PER_UNIT[v.du as IntervalTimeUnit] ?? 1))
      issues.push({ field: `${prefix}.do`, message: NOTICE });
  }
  return issues;
}
