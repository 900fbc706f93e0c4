import { FuelMeasure, KM_PER_MILE, MeasureSystem } from './constants.js';
import { FUEL_TIME_TEXT } from './contracts/fuel.js';
import { tzOffsetMinutes } from './timezone.js';

/**
 * Pure rules of fuel fillings (PRODUCT.md "Fuel fillings"; spec §3 fleet `fm` and `ms`): exact volume and
 * price conversions between the fleet's fuel units, the filling time of a request, and consumption
 * between full-tank fillings.
 */

/** One US gallon is 3.785411784 litres exactly (231 cubic inches); as an integer ratio for exact maths. */
const LITRES_PER_GALLON_NUM = 3_785_411_784n;
const LITRES_PER_GALLON_DEN = 1_000_000_000n;

/** Half-up division of non-negative big integers (volumes and prices are never negative). */
function divRound(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (d * 2n);
}

function toUnit(fm: number): 1 | 2 {
  return fm === FuelMeasure.gallon ? FuelMeasure.gallon : FuelMeasure.liter;
}

/**
 * A volume in integer thousandths of fuel unit `from` (1 litres, 2 US gallons) in thousandths of `to`,
 * rounded half up. Gallons → litres → gallons gives the gallons back exactly at 3 decimals (a litre is
 * smaller than a gallon, so the rounding in litres is under half a thousandth of a gallon).
 */
export function convertVolume(thousandths: number, from: number, to: number): number {
  const [a, b] = [toUnit(from), toUnit(to)];
  if (a === b) return thousandths;
  const v = BigInt(thousandths);
  return Number(
    a === FuelMeasure.gallon
      ? divRound(v * LITRES_PER_GALLON_NUM, LITRES_PER_GALLON_DEN)
      : divRound(v * LITRES_PER_GALLON_DEN, LITRES_PER_GALLON_NUM),
  );
}

/** A price per fuel unit `from` as a price per unit `to`, in thousandths of money, rounded half up. */
export function convertPrice(thousandths: number, from: number, to: number): number {
  // A price per unit scales the other way round: per gallon = per litre × litres per gallon.
  return convertVolume(thousandths, to, from);
}

/**
 * Unix seconds of a filling time as a request sends it: Unix seconds as they are, or fleet-zone text
 * `YYYY-MM-DD[ HH:mm[:ss]]` (spec §5 "Requests use YYYY-MM-DD and HH:mm:ss"); undefined when the text
 * names no real date or time.
 */
export function fillingTime(tz: number, value: number | string): number | undefined {
  if (typeof value === 'number') return value;
  const m = FUEL_TIME_TEXT.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const localMs = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(localMs).getUTCDate() !== d) return undefined;
  const local = localMs / 1000;
  // The offset in force at that wall-clock time (two steps settle it around a daylight-saving change).
  const guess = local - tzOffsetMinutes(tz, local) * 60;
  const at = local - tzOffsetMinutes(tz, guess) * 60;
  return at < 0 ? undefined : at;
}

/** One filling as consumption reads it. */
export interface FuelPoint {
  id: number;
  /** When the tank was filled, Unix seconds. */
  time: number;
  /** Mileage at the filling, km; null when unknown. */
  mileage: number | null;
  /** Integer thousandths of one fuel unit, the same for every point. */
  volume: number;
  full: boolean;
}

/**
 * Consumption of `volume` thousandths of fuel over `km` (PRODUCT.md: "per 100 km (or mpg)"): a fleet
 * measured in km gets fuel units per 100 km (l/100 km, or gal/100 km), a fleet in miles gets miles per
 * fuel unit (mpg, or mi/l). Rounded to the 3 decimals of spec §9; null without distance or fuel.
 */
export function consumptionOf(volume: number, km: number, ms: number): number | null {
  if (!(km > 0) || !(volume > 0)) return null;
  const units = volume / 1000;
  const value = ms === MeasureSystem.miles ? km / KM_PER_MILE / units : (units / km) * 100;
  return Math.round(value * 1000) / 1000;
}

/**
 * Consumption of `volume` thousandths of fuel over `hours` engine hours, for units whose type counts
 * engine hours (format/consumption.ts `countingBasis`; docs/product.md "Consumption of machines"): fuel
 * units per engine hour (L/h, or gal/h) in any fleet, rounded to the 3 decimals of spec §9; null without
 * hours or fuel.
 */
export function consumptionPerHour(volume: number, hours: number): number | null {
  if (!(hours > 0) || !(volume > 0)) return null;
  return Math.round(volume / hours) / 1000;
}

const byTime = (a: FuelPoint, b: FuelPoint) => a.time - b.time || a.id - b.id;

/** A stretch between two full-tank fillings: the fuel filled after the first, and the km between them. */
export interface FuelStretch {
  /** The full-tank filling that ends it. */
  id: number;
  volume: number;
  km: number;
}

/**
 * The stretches of the full-tank method (PRODUCT.md "Fuel fillings"): a full-tank filling after an
 * earlier full one consumed everything filled since (the partial fillings between, and its own volume)
 * over the distance between the two. The first full filling ends none (the level before it is unknown);
 * a partial filling ends none either, its volume counts towards the next full one. A full filling
 * without mileage ends no stretch but adds its volume, so the next one with mileage measures across it;
 * a mileage not above the last full one's starts afresh. Points in any order; ties by id.
 */
export function fuelStretches(points: readonly FuelPoint[]): FuelStretch[] {
  const out: FuelStretch[] = [];
  let base: number | null = null;
  let pending = 0;
  for (const p of [...points].sort(byTime)) {
    if (!p.full || p.mileage === null) {
      pending += p.volume;
      continue;
    }
    if (base !== null && p.mileage > base)
      out.push({ id: p.id, volume: pending + p.volume, km: p.mileage - base });
    base = p.mileage;
    pending = 0;
  }
  return out;
}

/** Each filling's consumption (null for those that end no stretch); see `fuelStretches`. */
export function fillingConsumptions(points: readonly FuelPoint[], ms: number): Map<number, number | null> {
  const out = new Map<number, number | null>(points.map((p) => [p.id, null]));
  for (const s of fuelStretches(points)) out.set(s.id, consumptionOf(s.volume, s.km, ms));
  return out;
}

/** The consumption of all stretches together (their fuel over their distance); null without any. */
export function averageConsumption(points: readonly FuelPoint[], ms: number): number | null {
  const stretches = fuelStretches(points);
  if (stretches.length === 0) return null;
  const volume = stretches.reduce((sum, s) => sum + s.volume, 0);
  const km = stretches.reduce((sum, s) => sum + s.km, 0);
  return consumptionOf(volume, km, ms);
}
