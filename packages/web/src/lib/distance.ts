import { fleetDistanceToKm, KM_PER_MILE, kmToFleetDistance, MeasureSystem } from '@fleetkeep/core';

/**
 * Distances in the fleet's unit for the forms (spec §9: the account's unit; the API is in km). The
 * conversion is core's (`format/units.ts`, shared with the server's mails and reports); the screens pass
 * `miles` (the fleet's `ms === 1`).
 */

/** 3 decimals at most: the precision of every exact value on the wire (spec §5). */
export const round3 = (v: number): number => Math.round(v * 1000) / 1000;

/** The fleet's measure system `ms` of a screen's `miles`. */
const measure = (miles: boolean) => (miles ? MeasureSystem.miles : MeasureSystem.meters);

/** A km value in the fleet's distance unit, to 3 decimals. */
export function kmToDisplay(km: number, miles: boolean): number {
  return kmToFleetDistance(km, measure(miles));
}

/** A typed value in the fleet's distance unit back to km, to 3 decimals. */
export function displayToKm(value: number, miles: boolean): number {
  return fleetDistanceToKm(value, measure(miles));
}

/** A whole distance in km in the fleet's unit (interval frequencies: miles rounded to whole miles). */
export function wholeKmToDisplay(km: number, miles: boolean): number {
  return miles ? Math.round(km / KM_PER_MILE) : km;
}

/** A whole distance typed in the fleet's unit back to whole km for the wire. */
export function wholeDisplayToKm(value: number, miles: boolean): number {
  return miles ? Math.round(value * KM_PER_MILE) : value;
}
