import {
  COUNTER_MAX,
  DAY_SECONDS,
  fromThousandths,
  INTERVAL_TIME_FREQUENCY_MAX,
  INTERVAL_TIME_UNITS,
  type IntervalAssignmentInput,
  type IntervalAssignmentWire,
  type IntervalCreateBody,
  type IntervalTimeUnit,
  type IntervalWire,
  LineItemKind,
  type LineWire,
  localDate,
  type ObjectType,
  objectType,
  startOfDay,
  toThousandths,
  tzOffsetMinutes,
} from '@fleetkeep/core';
import { integerDigits, numericValue } from '../../../components/numeric.ts';
import {
  kmToDisplay as exactToDisplay,
  displayToKm as exactToKm,
  round3,
  wholeDisplayToKm,
  wholeKmToDisplay,
} from '../../../lib/distance.ts';

/**
 * Pure rules of the interval editor (spec §3 "Interval", §5, §9 "Remaining value"; PRODUCT.md
 * "Intervals"): form ↔ wire mapping with the miles conversion, remaining values and exact line totals.
 * The wire shapes and limits are the core contract's (contracts/intervals.ts); the checks before a
 * save are in `validation.ts`.
 */

/** Object type codes (core `objectType`): u unit, d driver, t trailer. */
export const OBJECT_TYPES: readonly ObjectType[] = objectType.options;

/** Line-item kinds an interval may carry (spec §3: task=1 is labour, part=2). */
export const LINE_KIND = { labour: LineItemKind.task, part: LineItemKind.part } as const;
export type LineKind = (typeof LINE_KIND)[keyof typeof LINE_KIND];

/** Units of the time frequency, in the order the editor offers them (core `INTERVAL_TIME_UNITS`). */
export const TIME_UNITS: readonly IntervalTimeUnit[] = INTERVAL_TIME_UNITS;

/**
 * Input lengths: frequencies and notices up to 9 integer digits, baselines up to the contract's
 * COUNTER_MAX, the time frequency up to INTERVAL_TIME_FREQUENCY_MAX (three digits, spec §5 "Import:
 * intervals").
 */
export const MAX_DIGITS = {
  counter: 9,
  baseline: integerDigits(COUNTER_MAX),
  timeFrequency: integerDigits(INTERVAL_TIME_FREQUENCY_MAX),
  noticeDays: 6,
  executions: 9,
  money: 12,
} as const;

export interface KindForm {
  on: boolean;
  /** Frequency as NumericInput text, in the fleet's distance unit for mileage. */
  every: string;
  /** Advance notice text (mileage in the fleet's unit, time in days). */
  notice: string;
}

export interface AssignmentForm {
  id: number;
  t: ObjectType;
  /** Last mileage in the fleet's distance unit, last engine hours, last date YYYY-MM-DD, executions. */
  lcnm: string;
  lceh: string;
  ltm: string;
  cnt: string;
  /** The texts first shown: a baseline text left as it was is not sent (server keeps or defaults it). */
  shown: { lcnm: string; lceh: string; ltm: string; cnt: string };
  /** Last mileage in km as stored, for remaining values while the mileage text is untouched. */
  lcnmKm: number;
  /** True until saved: the server starts its baseline from the object's counters and today. */
  isNew: boolean;
}

export interface LineForm {
  n: string;
  t: LineKind;
  q: string;
  c: string;
}

export interface IntervalForm {
  name: string;
  description: string;
  mileage: KindForm;
  engineHours: KindForm;
  time: KindForm & { unit: IntervalTimeUnit };
  assignments: AssignmentForm[];
  lines: LineForm[];
}

/** What a mapping needs to know of the fleet: miles (`ms === 1`) and its time zone. */
export interface FleetUnits {
  miles: boolean;
  tz: number;
}

/** Text of a number for a NumericInput: at most 3 fraction digits, no trailing zeros. */
export function numberText(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return String(round3(value));
}

/** Frequencies and notices: whole distances (miles rounded to whole miles). */
export const kmToDisplay = wholeKmToDisplay;
export const displayToKm = wholeDisplayToKm;
/** Counter baselines: kept to 3 decimals. */
export const baselineToDisplay = exactToDisplay;
export const baselineToKm = exactToKm;

/** An integer typed into a field, or null. */
export const whole = (text: string): number | null => {
  const v = numericValue(text);
  return v !== null && Number.isInteger(v) ? v : null;
};

/** YYYY-MM-DD of a Unix time in the fleet zone. */
export function dayText(unix: number, tz: number): string {
  return localDate(tz, unix);
}

/**
 * Unix seconds of the start of a YYYY-MM-DD day in the fleet zone (as the server's `parseDay`: local
 * noon of that day, then its local midnight, so daylight saving is applied); null when malformed.
 */
export function dayStart(text: string, tz: number): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const date = new Date(0);
  date.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (date.getUTCDate() !== Number(m[3])) return null;
  const local = date.getTime() / 1000 + DAY_SECONDS / 2;
  return startOfDay(tz, local - tzOffsetMinutes(tz, local) * 60);
}

export function emptyForm(): IntervalForm {
  return {
    name: '',
    description: '',
    mileage: { on: false, every: '', notice: '' },
    engineHours: { on: false, every: '', notice: '' },
    time: { on: false, every: '', notice: '', unit: 'm' },
    assignments: [],
    lines: [],
  };
}

/** An existing assignment as the form shows it (baselines in the fleet's units). */
export function assignmentFromWire(a: IntervalAssignmentWire, units: FleetUnits): AssignmentForm {
  const shown = {
    lcnm: numberText(baselineToDisplay(a.lcnm, units.miles)),
    lceh: numberText(a.lceh),
    ltm: dayText(a.ltm, units.tz),
    cnt: String(a.cnt),
  };
  return { id: a.id, t: a.t, ...shown, shown, lcnmKm: a.lcnm, isNew: false };
}

/** An object's counters now (units only; drivers and trailers have none). */
export interface ObjectCounters {
  mileage: number | null;
  engineHours: number | null;
}

/**
 * A new assignment shows the baseline the server will give it: the object's current counters and
 * today, no executions (PRODUCT.md "Intervals").
 */
export function newAssignment(
  ref: { id: number; t: ObjectType },
  counters: ObjectCounters,
  units: FleetUnits,
  now: number,
): AssignmentForm {
  const km = counters.mileage ?? 0;
  const shown = {
    lcnm: numberText(baselineToDisplay(km, units.miles)),
    lceh: numberText(counters.engineHours ?? 0),
    ltm: dayText(now, units.tz),
    cnt: '0',
  };
  return { id: ref.id, t: ref.t, ...shown, shown, lcnmKm: km, isNew: true };
}

const lineFromWire = (l: LineWire): LineForm => ({
  n: l.n,
  t: l.t === LINE_KIND.part ? LINE_KIND.part : LINE_KIND.labour,
  q: numberText(l.q),
  c: numberText(l.c),
});

export function formFromWire(iv: IntervalWire, units: FleetUnits): IntervalForm {
  const distance = (km: number) => String(kmToDisplay(km, units.miles));
  return {
    name: iv.n,
    description: iv.description ?? '',
    mileage: { on: iv.cnme === 1, every: distance(iv.cnmd), notice: distance(iv.cnmo) },
    engineHours: { on: iv.cnehe === 1, every: String(iv.cnehd), notice: String(iv.cneho) },
    time: { on: iv.de === 1, every: String(iv.dd), notice: String(iv.do), unit: iv.du },
    assignments: iv.u.map((a) => assignmentFromWire(a, units)),
    lines: (iv.li ?? []).map(lineFromWire),
  };
}

// ---------------------------------------------------------------------------------------------------
// Form → wire

/** An assignment as a write sends it (core `intervalAssignmentInput`). */
export type AssignmentBody = IntervalAssignmentInput;

/** The body of a create or update, every field given (core `intervalCreateBody`). */
export type IntervalBody = Required<IntervalCreateBody>;

export const flag = (on: boolean): 0 | 1 => (on ? 1 : 0);

/**
 * A distance typed in the fleet's unit as km. When the text still shows the stored km value (in miles,
 * rounded), the stored value is kept so that saving an untouched field does not drift by the rounding.
 */
function distanceKm(text: string, storedKm: number | undefined, miles: boolean): number {
  const v = whole(text) ?? 0;
  if (storedKm !== undefined && kmToDisplay(storedKm, miles) === v) return storedKm;
  return displayToKm(v, miles);
}

/**
 * The baseline fields the user changed; untouched ones are left out, so a new assignment starts from
 * the object's counters and today at save time and an existing one keeps what the server holds.
 */
export function assignmentBody(a: AssignmentForm, units: FleetUnits): AssignmentBody {
  const body: AssignmentBody = { id: a.id, t: a.t };
  if (a.lcnm !== a.shown.lcnm) body.lcnm = baselineToKm(numericValue(a.lcnm) ?? 0, units.miles);
  if (a.lceh !== a.shown.lceh) body.lceh = round3(numericValue(a.lceh) ?? 0);
  if (a.ltm !== a.shown.ltm) {
    const at = dayStart(a.ltm, units.tz);
    if (at !== null) body.ltm = at;
  }
  if (a.cnt !== a.shown.cnt) body.cnt = whole(a.cnt) ?? 0;
  return body;
}

/** A line's decimals as wire numbers (exact to 3 fraction digits). */
function decimalOf(text: string): number {
  return fromThousandths(toThousandths(text.trim() === '' ? '0' : text) ?? 0);
}

/**
 * The body of POST /intervals or PUT /intervals/{id}: thresholds in km and hours, assignments (`u`,
 * which the server accepts in the interval body, replacing the list) and line items. `stored` is the
 * interval as loaded, null when new.
 */
export function formToBody(form: IntervalForm, stored: IntervalWire | null, units: FleetUnits): IntervalBody {
  const int = (text: string) => whole(text) ?? 0;
  return {
    n: form.name.trim(),
    description: form.description,
    cnme: flag(form.mileage.on),
    cnmd: distanceKm(form.mileage.every, stored?.cnmd, units.miles),
    cnmo: distanceKm(form.mileage.notice, stored?.cnmo, units.miles),
    cnehe: flag(form.engineHours.on),
    cnehd: int(form.engineHours.every),
    cneho: int(form.engineHours.notice),
    de: flag(form.time.on),
    dd: int(form.time.every),
    du: form.time.unit,
    do: int(form.time.notice),
    u: form.assignments.map((a) => assignmentBody(a, units)),
    li: form.lines.map((l) => ({ n: l.n.trim(), t: l.t, q: decimalOf(l.q), c: decimalOf(l.c) })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Navigation state from /items bulk mode

/** `location.state = { assign: [{ id, t }] }`: the objects to preselect on /interval/new, deduplicated. */
export function assignRefsOf(state: unknown): { id: number; t: ObjectType }[] {
  if (typeof state !== 'object' || state === null) return [];
  const assign = (state as { assign?: unknown }).assign;
  if (!Array.isArray(assign)) return [];
  const seen = new Set<string>();
  const out: { id: number; t: ObjectType }[] = [];
  for (const r of assign) {
    const id = (r as { id?: unknown })?.id;
    const t = (r as { t?: unknown })?.t;
    if (typeof id !== 'number' || !Number.isInteger(id) || !OBJECT_TYPES.includes(t as ObjectType)) continue;
    const key = `${t}:${id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ id, t: t as ObjectType });
  }
  return out;
}

export const objectKey = (ref: { id: number; t: ObjectType }) => `${ref.t}:${ref.id}`;
