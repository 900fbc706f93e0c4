import {
  convertPrice,
  convertVolume,
  DECIMAL_MAX,
  type FuelFigures,
  type FuelFillingCreateInput,
  type FuelFillingUpdateInput,
  FuelMeasure,
  type FuelTimeIn,
  fillingTime,
  multiplyThousandths,
} from '@fleetkeep/core';
import type { Insertable, Updateable } from 'kysely';
import type { FuelFillingRow, FuelFillingTable } from '../../db/schema.js';
import { type Issue, thousandths } from '../lineitems/library.js';

/**
 * Turns fuel filling requests into rows (PRODUCT.md "Fuel fillings"), checking every field and listing
 * every failure. Pure: the caller reads the unit and the fleet first.
 *
 * Volume and price are stored in the fleet's fuel unit of the moment (`volume_unit`), as entered; an
 * update that changes them writes them in the fleet's current unit. The total is the entered one (`manual_cost`), else
 * volume × price, both exact in thousandths (DESIGN §2).
 */

export interface FuelContext {
  fleetId: number;
  tz: number;
  /** The fleet's fuel unit (spec §3 `fm`: 1 litres, 2 US gallons). */
  fm: number;
  now: number;
  /** Start of tomorrow in the fleet zone: a filling happened before it. */
  tomorrow: number;
  actorId: number;
}

/** The unit a filling belongs to, as the write reads it; undefined when it is not in the fleet. */
export interface UnitState {
  mileage: number;
}

export type FuelInsert = Insertable<FuelFillingTable> & Omit<FuelFillingRow, 'id'>;

export interface FuelPlan<R> {
  issues: Issue[];
  row: R;
}

/** The fleet's fuel unit as stored: anything but gallons is litres (spec §3). */
export const fuelUnitOf = (fm: number) =>
  fm === FuelMeasure.gallon ? FuelMeasure.gallon : FuelMeasure.liter;

/** Largest total in thousandths: the largest decimal a request may carry (core DECIMAL_MAX). */
const TOTAL_MAX = DECIMAL_MAX * 1000;

function timeOf(fc: FuelContext, value: FuelTimeIn, field: string, issues: Issue[]): number | undefined {
  const at = fillingTime(fc.tz, value);
  if (at === undefined) issues.push({ field, message: 'Invalid date' });
  else if (at >= fc.tomorrow) issues.push({ field, message: 'Must be today or earlier' });
  return at;
}

/** The total of a filling: the entered one, else volume × price; an issue when there is neither. */
function totalOf(
  prefix: string,
  issues: Issue[],
  volume: number,
  price: number | null,
  manual: number | null,
): number {
  const total = manual ?? (price === null ? null : multiplyThousandths(volume, price));
  if (total === null) {
    issues.push({ field: `${prefix}price`, message: 'Enter the price per unit or the total cost' });
    return 0;
  }
  if (total > TOTAL_MAX) issues.push({ field: `${prefix}price`, message: 'The total cost is too large' });
  return total;
}

const decimalOrNull = (v: number | string | null | undefined) =>
  v === null || v === undefined ? null : thousandths(v);

export function planCreate(
  fc: FuelContext,
  input: FuelFillingCreateInput,
  unit: UnitState | undefined,
  prefix = 'body.',
): FuelPlan<FuelInsert> {
  const issues: Issue[] = [];
  // The same answer as the services module for a unit of another fleet, or none.
  if (!unit) issues.push({ field: `${prefix}uid`, message: 'Unknown object in this fleet' });
  const filledAt = timeOf(fc, input.date ?? fc.now, `${prefix}date`, issues) ?? fc.now;
  const volume = thousandths(input.volume);
  const price = decimalOrNull(input.price);
  const manual = decimalOrNull(input.manual_cost);
  const total = totalOf(prefix, issues, volume, price, manual);
  const row: FuelInsert = {
    fleet_id: fc.fleetId,
    unit_id: input.uid,
    filled_at: filledAt,
    fuel_type: input.fuel_type ?? '',
    volume,
    volume_unit: fuelUnitOf(fc.fm),
    price,
    manual_cost: manual,
    total_cost: total,
    // PRODUCT.md: the mileage at the filling defaults to the unit's counter.
    mileage: input.mileage ?? (unit ? Math.round(unit.mileage * 1000) / 1000 : null),
    full_tank: input.full ?? 1,
    station: input.station ?? '',
    description: input.description ?? '',
    cf: JSON.stringify(input.cf ?? []),
    creator_id: fc.actorId,
    created_at: fc.now,
    updated_at: fc.now,
  };
  return { issues, row };
}

/**
 * An update: every field optional, the filling as read accepted. `unit` is the state of the unit the
 * patch moves the filling to (only read when `uid` changes).
 */
export function planUpdate(
  fc: FuelContext,
  existing: FuelFillingRow,
  patch: FuelFillingUpdateInput,
  unit: UnitState | undefined,
  prefix = 'body.',
): FuelPlan<Updateable<FuelFillingTable>> {
  const issues: Issue[] = [];
  const fm = fuelUnitOf(fc.fm);
  const row: Updateable<FuelFillingTable> = { updated_at: fc.now };
  if (patch.uid !== undefined && patch.uid !== existing.unit_id) {
    if (!unit) issues.push({ field: `${prefix}uid`, message: 'Unknown object in this fleet' });
    row.unit_id = patch.uid;
  }
  if (patch.date !== undefined) {
    const at = fillingTime(fc.tz, patch.date);
    // The time sent back as read is no change, whatever "today" is now.
    if (at !== existing.filled_at) row.filled_at = timeOf(fc, patch.date, `${prefix}date`, issues);
  }
  const shownVolume = convertVolume(existing.volume, existing.volume_unit, fm);
  const shownPrice = existing.price === null ? null : convertPrice(existing.price, existing.volume_unit, fm);
  const volume = patch.volume === undefined ? shownVolume : thousandths(patch.volume);
  const price = patch.price === undefined ? shownPrice : decimalOrNull(patch.price);
  const manual = patch.manual_cost === undefined ? existing.manual_cost : decimalOrNull(patch.manual_cost);
  row.manual_cost = manual;
  if (volume !== shownVolume || price !== shownPrice) {
    // New amounts are written in the fleet's fuel unit of the moment.
    Object.assign(row, { volume, volume_unit: fm, price });
    row.total_cost = totalOf(prefix, issues, volume, price, manual);
  } else {
    // Amounts sent back as read (perhaps converted since the fleet changed its unit) stay as stored.
    row.total_cost = totalOf(prefix, issues, existing.volume, existing.price, manual);
  }
  if (patch.mileage !== undefined) row.mileage = patch.mileage;
  if (patch.full !== undefined) row.full_tank = patch.full;
  if (patch.fuel_type !== undefined) row.fuel_type = patch.fuel_type;
  if (patch.station !== undefined) row.station = patch.station;
  if (patch.description !== undefined) row.description = patch.description;
  if (patch.cf !== undefined) row.cf = JSON.stringify(patch.cf);
  return { issues, row };
}

/** What the domain events of a filling carry (core `FuelFigures`). */
export function figuresOf(row: Omit<FuelFillingRow, 'id'>): FuelFigures {
  return {
    unitId: row.unit_id,
    filledAt: row.filled_at,
    volume: row.volume,
    volumeUnit: row.volume_unit,
    cost: row.total_cost,
    mileage: row.mileage,
    full: row.full_tank === 1,
  };
}
