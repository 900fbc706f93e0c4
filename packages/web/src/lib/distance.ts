import { KM_PER_MILE } from '@fleetkeep/core';

/** 3 decimals at most: the precision of every exact value on the wire (spec §5). */
export const round3 = (v: number): number => Math.round(v * 1000) / 1000;

/** A km value in the fleet's distance unit (spec §9: the account's unit; the API is in km). */
export function kmToDisplay(km: number, miles: boolean): number {
  return round3(miles ? km / KM_PER_MILE : km);
}

/** A typed value in the fleet's distance unit back to km. */
export function displayToKm(value: number, miles: boolean): number {
  return round3(miles ? value * KM_PER_MILE : value);
}

/** A whole distance in km in the fleet's unit (interval frequencies: miles rounded to whole miles). */
export function wholeKmToDisplay(km: number, miles: boolean): number {
  return miles ? Math.round(km / KM_PER_MILE) : km;
}

/** A whole distance typed in the fleet's unit back to whole km for the wire. */
export function wholeDisplayToKm(value: number, miles: boolean): number {
  return miles ? Math.round(value * KM_PER_MILE) : value;
}
