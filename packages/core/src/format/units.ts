import { FuelMeasure, KM_PER_MILE, MeasureSystem } from '../constants.js';
import { formatNumber, type NumberFormat } from './number.js';

/**
 * Distances and fuel volumes in the fleet's units (spec §3 fleet `ms` and `fm`, §9 "Mileage shows in the
 * account's measure unit"). Distances: the API and the database keep km, converted at display. Fuel
 * volumes are NOT litres on the wire: fuel fillings carry `volume` and `price` in the fleet's own fuel
 * unit `fm` (contracts/fuel.ts), shown as they come; the litre helpers below serve values that are litres.
 */

/** One US gallon in litres (exact by definition: 231 cubic inches). */
export const LITRES_PER_US_GALLON = 3.785411784;

/** Rounds to the 3 fraction digits of every exact value (spec §9 precision), half away from zero. */
function round3(value: number): number {
  return (Math.sign(value) * Math.round(Math.abs(value) * 1000)) / 1000;
}

/** Whether a fleet's measure system `ms` is miles (spec §3: 1 means miles, otherwise km). */
export function usesMiles(ms: number | null | undefined): boolean {
  return ms === MeasureSystem.miles;
}

/** Whether a fleet's fuel measure `fm` is US gallons (spec §3: liter=1, gallon=2). */
export function usesGallons(fm: number | null | undefined): boolean {
  return fm === FuelMeasure.gallon;
}

/** A distance in km in the fleet's unit, to 3 decimals. */
export function kmToFleetDistance(km: number, ms: number | null | undefined): number {
  return round3(usesMiles(ms) ? km / KM_PER_MILE : km);
}

/** A distance in the fleet's unit back to km, to 3 decimals. */
export function fleetDistanceToKm(value: number, ms: number | null | undefined): number {
  return round3(usesMiles(ms) ? value * KM_PER_MILE : value);
}

/** A volume in litres in the fleet's fuel unit, to 3 decimals. */
export function litresToFleetVolume(litres: number, fm: number | null | undefined): number {
  return round3(usesGallons(fm) ? litres / LITRES_PER_US_GALLON : litres);
}

/** A volume in the fleet's fuel unit back to litres, to 3 decimals. */
export function fleetVolumeToLitres(value: number, fm: number | null | undefined): number {
  return round3(usesGallons(fm) ? value * LITRES_PER_US_GALLON : value);
}

/** The Intl unit (ECMA-402 sanctioned identifiers) of a fleet's distances and volumes. */
export const distanceUnit = (ms: number | null | undefined) => (usesMiles(ms) ? 'mile' : 'kilometer');
export const volumeUnit = (fm: number | null | undefined) => (usesGallons(fm) ? 'gallon' : 'liter');

/**
 * The localised unit part of a measurement ('km', 'mi', 'км', 'L', 'gal', 'd'), for a number shown with
 * the §9 formatting beside it; the unit's own name when Intl does not know it. `value` picks the plural
 * form where a language has one (Ukrainian 'миля' / 'милі' / 'миль').
 */
export function unitLabel(
  lang: string,
  unit: string,
  value = 2,
  unitDisplay: 'short' | 'narrow' = 'short',
): string {
  try {
    return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay })
      .formatToParts(value)
      .filter((p) => p.type === 'unit')
      .map((p) => p.value)
      .join(' ');
  } catch {
    return unit;
  }
}

/** A number with its localised unit label, in the plural form of the number as shown: '1 234 km'. */
function withUnit(value: number, unit: string, lang: string, options: NumberFormat): string {
  const text = formatNumber(value, options);
  // The plural form follows the number as shown, read back from the neutral (space and dot) form.
  const neutral = options.locale ? formatNumber(value, { ...options, locale: undefined }) : text;
  const shown = Number(neutral.replaceAll(' ', ''));
  return `${text} ${unitLabel(lang, unit, Number.isFinite(shown) ? shown : value)}`;
}

/** A distance given in km, shown in the fleet's unit: '62.137 mi', '100 км'. */
export function formatDistance(
  km: number,
  ms: number | null | undefined,
  lang: string,
  options: NumberFormat = {},
): string {
  return withUnit(kmToFleetDistance(km, ms), distanceUnit(ms), lang, options);
}

/** A fuel volume given in litres, shown in the fleet's unit: '26.417 gal', '100 л'. */
export function formatVolume(
  litres: number,
  fm: number | null | undefined,
  lang: string,
  options: NumberFormat = {},
): string {
  return withUnit(litresToFleetVolume(litres, fm), volumeUnit(fm), lang, options);
}
