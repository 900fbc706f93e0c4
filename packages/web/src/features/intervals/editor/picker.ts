import type { ObjectType } from '@fleetkeep/core';
import { OBJECT_TYPES } from './rules.ts';

/** The object-kind filter of the assigned-units picker: all kinds, or one. */
export type KindFilter = 'all' | ObjectType;

/**
 * An interval that counts mileage or engine hours is for units: drivers and trailers have no
 * counters (PRODUCT.md "Intervals"), so the picker offers units only; otherwise every kind, all first.
 */
export function pickerKinds(countsUnits: boolean): readonly KindFilter[] {
  return countsUnits ? ['u'] : ['all', ...OBJECT_TYPES];
}

/** The kind the picker shows: units while the interval counts mileage or engine hours, else the choice. */
export function pickerKind(chosen: KindFilter, countsUnits: boolean): KindFilter {
  return countsUnits ? 'u' : chosen;
}

/** Whether the interval's rules count mileage or engine hours. */
export function countsUnits(form: { mileage: { on: boolean }; engineHours: { on: boolean } }): boolean {
  return form.mileage.on || form.engineHours.on;
}
