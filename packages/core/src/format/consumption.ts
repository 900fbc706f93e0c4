import type { UnitTypeName } from '../constants.js';
import { formatNumber, type NumberFormat } from './number.js';
import { unitLabel, usesGallons, usesMiles } from './units.js';

/**
 * Consumption as a reader sees it (PRODUCT.md "Fuel fillings": per 100 km or mpg; docs/product.md
 * "Consumption of machines"): a unit whose type counts engine hours rather than distance (a tractor, a
 * generator, a forklift) shows fuel per engine hour, L/h or gal/h, computed from the hours it ran
 * (core fuel.ts `consumptionPerHour`); every other unit shows fuel per 100 km in a km fleet and distance
 * per fuel unit (mpg) in a miles fleet (core fuel.ts `consumptionOf`).
 */

/** What a unit's work is counted in: distance (km or miles) or engine hours. */
export type CountingBasis = 'distance' | 'hours';

/**
 * The unit types (spec §3 "Vehicle types") that count engine hours: machines that work standing or
 * slowly (tractors, special vehicles, stationary machines) and `other`, where the product files forklifts
 * and similar machines (the demo fleet does the same).
 */
export const HOUR_COUNTING_UNIT_TYPES: ReadonlySet<UnitTypeName> = new Set<UnitTypeName>([
  'tractor',
  'specialized_vehicle',
  'nonmoving',
  'other',
]);

/** The counting basis of a unit type by its name (null or unknown names: distance). */
export function countingBasis(typeName: string | null | undefined): CountingBasis {
  return typeName && HOUR_COUNTING_UNIT_TYPES.has(typeName as UnitTypeName) ? 'hours' : 'distance';
}

/** The label of a consumption value: 'L/100 km', 'gal/100 km', 'mi/gal', 'mi/L', 'L/h', 'gal/h'. */
export function consumptionLabel(
  lang: string,
  basis: CountingBasis,
  ms: number | null | undefined,
  fm: number | null | undefined,
): string {
  const volume = unitLabel(lang, usesGallons(fm) ? 'gallon' : 'liter');
  if (basis === 'hours') return `${volume}/${unitLabel(lang, 'hour', 1, 'narrow')}`;
  if (usesMiles(ms)) return `${unitLabel(lang, 'mile')}/${volume}`;
  return `${volume}/100 ${unitLabel(lang, 'kilometer')}`;
}

/**
 * A consumption value with its label in the reader's locale: '8.4 L/100 km', '14,2 L/h'. One decimal is
 * shown (the value is kept to 3); empty for null.
 */
export function formatConsumption(
  value: number | null | undefined,
  basis: CountingBasis,
  ms: number | null | undefined,
  fm: number | null | undefined,
  lang: string,
  options: NumberFormat = {},
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const text = formatNumber(value, { decimals: 1, locale: lang, ...options });
  return `${text} ${consumptionLabel(lang, basis, ms, fm)}`;
}
