import {
  type CustomFieldValue,
  DECIMAL_MAX,
  type FuelFillingCreateInput,
  type FuelFillingUpdateInput,
  type FuelFillingWire,
  fillingOverTank,
  fromThousandths,
  hasTag,
  localDate,
  multiplyThousandths,
  toThousandths,
  tzOffsetMinutes,
  type VehicleProfileWire,
} from '@fleetkeep/core';
import { numericValue } from '../../components/numeric.ts';
import type { Problem as CoreProblem } from '../../lib/coreResolver.ts';
import { sameValues } from '../../lib/customFields.ts';
import { fillDefaults } from '../../lib/defaults.ts';
import { displayToKm, kmToDisplay, round3 } from '../../lib/distance.ts';
import { dayNumber } from '../../lib/periods.ts';

/**
 * Pure rules of the fuel screens (spec §2 /fuelfillings, /fuelfilling/{id}; §5 numeric input; §9 time
 * ranges, the period itself in lib/periods.ts; PRODUCT.md "Fuel fillings"; the core contract
 * contracts/fuel.ts): the unit filter, the editor's form with its exact total (volume × price unless
 * entered), the body checked with the contract and the form's own rules, and the bodies sent. Volumes and money are summed and multiplied as
 * integer thousandths (core decimal.ts), never as floats.
 */

// ---------------------------------------------------------------------------------------------------
// The unit filter of the list (its period, spec §9 "Time ranges", is lib/periods.ts)

/** The unit filter of the URL (`unit=12`), or null for every unit. */
export function decodeUnit(params: URLSearchParams): number | null {
  const raw = params.get('unit') ?? '';
  return /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/** The fillings of one unit, or all when `uid` is null. */
export function filterByUnit<T extends { uid: number }>(rows: readonly T[], uid: number | null): T[] {
  return uid === null ? [...rows] : rows.filter((r) => r.uid === uid);
}

/** The unit tag of the URL (`tag=north`; docs/product.md "The vehicle profile"), or null. */
export const decodeTag = (params: URLSearchParams): string | null => params.get('tag')?.trim() || null;

/** The fillings of units carrying `tag` (without case), or all when it is null. */
export function filterByTag<T extends { uid: number }>(
  rows: readonly T[],
  tag: string | null,
  unitTags: ReadonlyMap<number, readonly string[]>,
): T[] {
  return tag === null ? [...rows] : rows.filter((r) => hasTag(unitTags.get(r.uid), tag));
}

// ---------------------------------------------------------------------------------------------------
// Exact decimals of the form (spec §5: at most 3 fraction digits; core decimal.ts)

/** Thousandths of a NumericInput text; undefined when empty or not a number. */
export function textThousandths(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '.') return undefined;
  return toThousandths(trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed);
}

/** NumericInput text of a wire number ('' for null). */
export function decimalText(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const th = toThousandths(round3(value));
  return th === undefined ? '' : String(fromThousandths(th));
}

/** volume × price in thousandths of money, rounded half away from zero; undefined without both. */
export function computedTotal(volume: string, price: string): number | undefined {
  const v = textThousandths(volume);
  const p = textThousandths(price);
  if (v === undefined || p === undefined) return undefined;
  return multiplyThousandths(v, p);
}

/** The total of the form: the one entered by hand, else volume × price (thousandths). */
export function formTotal(form: Pick<FuelForm, 'volume' | 'price' | 'manualCost'>): number | undefined {
  return textThousandths(form.manualCost) ?? computedTotal(form.volume, form.price);
}

// ---------------------------------------------------------------------------------------------------
// Mileage in the fleet's distance unit (spec §9; the wire is km)

/** A wire mileage (km) as form text in the fleet's unit. */
export const mileageText = (km: number | null | undefined, miles: boolean): string =>
  km === null || km === undefined ? '' : decimalText(kmToDisplay(km, miles));

/** Form text in the fleet's unit back to km for the wire; null when empty. */
export function mileageKm(text: string, miles: boolean): number | null {
  const th = textThousandths(text);
  return th === undefined ? null : displayToKm(fromThousandths(th), miles);
}

// ---------------------------------------------------------------------------------------------------
// The editor's form

export interface FuelForm {
  /** Unit id as the select's value, or null. */
  uid: string | null;
  /** Fleet-zone day YYYY-MM-DD and time HH:mm:ss. */
  date: string | null;
  time: string | null;
  fuelType: string;
  /** In the fleet's fuel unit, NumericInput text. */
  volume: string;
  /** Per fuel unit. */
  price: string;
  /** The total entered by hand; '' means volume × price. */
  manualCost: string;
  /** In the fleet's distance unit. */
  mileage: string;
  full: boolean;
  station: string;
  description: string;
  cf: CustomFieldValue[];
}

/** The fleet-zone day and minute of a Unix time (spec §5 "Time zone"): YYYY-MM-DD, HH:mm:00. */
export function fleetClock(tz: number, unix: number): { date: string; time: string } {
  const local = new Date((unix + tzOffsetMinutes(tz, unix) * 60) * 1000).toISOString();
  return { date: local.slice(0, 10), time: `${local.slice(11, 16)}:00` };
}

/** A new filling: now in the fleet zone, a full tank, the unit and its counter when known. */
export function emptyForm(
  now: { date: string; time: string },
  unit?: { id: number; cnm?: number | null } | null,
  miles = false,
): FuelForm {
  return {
    uid: unit ? String(unit.id) : null,
    date: now.date,
    time: now.time,
    fuelType: '',
    volume: '',
    price: '',
    manualCost: '',
    mileage: unit ? mileageText(unit.cnm, miles) : '',
    full: true,
    station: '',
    description: '',
    cf: [],
  };
}

export function formFromFilling(f: FuelFillingWire, tz: number, miles: boolean): FuelForm {
  const at = fleetClock(tz, f.date);
  return {
    uid: String(f.uid),
    date: at.date,
    time: at.time,
    fuelType: f.fuel_type,
    volume: decimalText(f.volume),
    price: decimalText(f.price),
    manualCost: decimalText(f.manual_cost),
    mileage: mileageText(f.mileage, miles),
    full: f.full === 1,
    station: f.station,
    description: f.description,
    cf: (f.cf ?? []).filter((x) => x.v !== ''),
  };
}

/** A library fuel type's price per unit as form text ('' for none: it is no default). */
const libraryPrice = (item: { c: number } | undefined) => (item && item.c > 0 ? decimalText(item.c) : '');

/**
 * The fuel type chosen, picked or typed: a library item's name, and its price per unit as the default of
 * the price (lib/defaults.ts: only an empty price or the untouched price of `replaced`, the library item
 * of the type chosen before; a price the user typed stays).
 */
export function withFuelType(
  form: FuelForm,
  item: { n: string; c: number } | undefined,
  typed: string,
  replaced?: { c: number },
): FuelForm {
  if (!item) return { ...form, fuelType: typed };
  return fillDefaults(
    { ...form, fuelType: item.n },
    { price: libraryPrice(item) },
    { price: libraryPrice(replaced) },
  );
}

/**
 * The unit chosen. A new filling takes its counter as the default of the mileage (PRODUCT.md "Fuel
 * fillings"), by the rule of lib/defaults.ts: a mileage the user typed stays; `replaced` is the unit
 * chosen before.
 */
export function withUnit(
  form: FuelForm,
  uid: string,
  unit: { cnm?: number | null } | undefined,
  replaced: { cnm?: number | null } | undefined,
  miles: boolean,
): FuelForm {
  if (!unit) return { ...form, uid };
  return fillDefaults(
    { ...form, uid },
    { mileage: mileageText(unit.cnm, miles) },
    { mileage: replaced ? mileageText(replaced.cnm, miles) : '' },
  );
}

// ---------------------------------------------------------------------------------------------------
// Checks before a save: the core contract `fuelFillingCreateBody` with the body of `checkedBody` (a unit;
// volume > 0, price and total decimals up to DECIMAL_MAX; the counter up to COUNTER_MAX km; text
// lengths), then the form's own rules the contract does not say (`ownProblems`: the server's "a price or
// a total", a day not after today, a computed total within DECIMAL_MAX, and a time).

export type Problem =
  | 'required'
  | 'invalidNumber'
  | 'positive'
  | 'tooLarge'
  | 'tooLong'
  | 'notAfterToday'
  | 'priceOrTotal';

export type Problems = Partial<Record<keyof FuelForm | 'time', Problem>>;

/** The editor's wording of a problem the core contract found (coreResolver kinds). */
export function problemOfCore(problem: CoreProblem): Problem {
  if (problem === 'required' || problem === 'tooLong') return problem;
  if (problem === 'tooBig' || problem === 'tooMany') return 'tooLarge';
  if (problem === 'tooSmall') return 'positive';
  return 'invalidNumber';
}

const timeText = (form: FuelForm) => `${form.date} ${form.time ?? '00:00:00'}`;

/** Decimal text as the contract reads it: a dangling point dropped, '' when empty. */
const decimalIn = (text: string) => text.trim().replace(/\.$/, '');

/**
 * The body the form is checked with: the create body with what the user typed kept (an empty volume is
 * '' and a missing unit or day null, so the contract names them required), mileage in km.
 */
export function checkedBody(form: FuelForm, miles: boolean): Record<string, unknown> {
  const optional = (text: string) => (text.trim() === '' ? null : decimalIn(text));
  const mileage = form.mileage.trim() === '' ? null : (mileageKm(form.mileage, miles) ?? Number.NaN);
  return {
    uid: form.uid === null ? null : Number(form.uid),
    date: form.date ? timeText(form) : null,
    fuel_type: form.fuelType,
    volume: decimalIn(form.volume),
    price: optional(form.price),
    manual_cost: optional(form.manualCost),
    mileage,
    full: form.full ? 1 : 0,
    station: form.station,
    description: form.description,
    cf: form.cf,
  };
}

/** The form's own rules: what the server checks beyond the contract, and a time to the day. */
export function ownProblems(form: FuelForm, today: string): Problems {
  const p: Problems = {};
  if (form.date && dayNumber(form.date) === null) p.date = 'invalidNumber';
  else if (form.date && form.date > today) p.date = 'notAfterToday';
  if (!form.time) p.time = 'required';
  if (form.price.trim() === '' && form.manualCost.trim() === '') p.price = 'priceOrTotal';
  else if (
    form.manualCost.trim() === '' &&
    (computedTotal(form.volume, form.price) ?? 0) > DECIMAL_MAX * 1000
  )
    p.price = 'tooLarge';
  return p;
}

// ---------------------------------------------------------------------------------------------------
// Bodies (spec §5 "Requests use YYYY-MM-DD and HH:mm:ss"; decimals as exact text)

const wireDecimal = (text: string): string | null => {
  const th = textThousandths(text);
  return th === undefined ? null : String(fromThousandths(th));
};

export function createBody(form: FuelForm, miles: boolean): FuelFillingCreateInput {
  const mileage = mileageKm(form.mileage, miles);
  return {
    uid: Number(form.uid),
    date: timeText(form),
    fuel_type: form.fuelType.trim(),
    volume: wireDecimal(form.volume) ?? '0',
    price: wireDecimal(form.price),
    manual_cost: wireDecimal(form.manualCost),
    // Left empty, the server takes the unit's counter (PRODUCT.md).
    ...(mileage !== null && { mileage }),
    full: form.full ? 1 : 0,
    station: form.station.trim(),
    description: form.description,
    cf: form.cf,
  };
}

/** The fields that changed since the form was loaded (the server keeps the rest as stored). */
export function updateBody(form: FuelForm, initial: FuelForm, miles: boolean): FuelFillingUpdateInput {
  const body: FuelFillingUpdateInput = {};
  if (form.uid !== initial.uid) body.uid = Number(form.uid);
  if (form.date !== initial.date || form.time !== initial.time) body.date = timeText(form);
  if (form.fuelType !== initial.fuelType) body.fuel_type = form.fuelType.trim();
  if (form.volume !== initial.volume) body.volume = wireDecimal(form.volume) ?? '0';
  if (form.price !== initial.price) body.price = wireDecimal(form.price);
  if (form.manualCost !== initial.manualCost) body.manual_cost = wireDecimal(form.manualCost);
  if (form.mileage !== initial.mileage) body.mileage = mileageKm(form.mileage, miles);
  if (form.full !== initial.full) body.full = form.full ? 1 : 0;
  if (form.station !== initial.station) body.station = form.station.trim();
  if (form.description !== initial.description) body.description = form.description;
  if (!sameValues(form.cf, initial.cf)) body.cf = form.cf;
  return body;
}

/** The form field of a server error's body path (`volume`, `manual_cost`, `cf.2`); null for none. */
export function fieldOfPath(path: readonly string[]): string | null {
  const map: Record<string, keyof FuelForm> = {
    uid: 'uid',
    date: 'date',
    fuel_type: 'fuelType',
    volume: 'volume',
    price: 'price',
    manual_cost: 'manualCost',
    total_cost: 'manualCost',
    mileage: 'mileage',
    full: 'full',
    station: 'station',
    description: 'description',
  };
  const [head, index] = path;
  if (head === 'cf') return index !== undefined ? `cf.${index}` : 'cf';
  return head !== undefined ? (map[head] ?? null) : null;
}

/** Today in the fleet zone as YYYY-MM-DD. */
export const fleetToday = (tz: number, nowSeconds: number) => localDate(tz, nowSeconds);

/**
 * The tank capacity a typed volume exceeds (docs/product.md "The vehicle profile": a filling larger
 * than the unit's tank is flagged as it is entered, not refused): the capacity and its fuel unit, or null
 * when the volume fits, is not a number yet, or the unit has no capacity. `fm` is the filling's unit.
 */
export function tankExceeded(
  volumeText: string,
  fm: number,
  vp: Pick<VehicleProfileWire, 'tc' | 'tu'> | undefined,
): { capacity: number; unit: 1 | 2 } | null {
  const volume = numericValue(volumeText);
  if (volume === null || !vp || vp.tc === null) return null;
  const thousandths = toThousandths(volume);
  const capacity = toThousandths(vp.tc);
  if (thousandths === undefined || capacity === undefined) return null;
  const unit = vp.tu ?? (fm === 2 ? 2 : 1);
  return fillingOverTank(thousandths, fm, capacity, unit) ? { capacity: vp.tc, unit } : null;
}
