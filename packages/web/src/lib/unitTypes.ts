/**
 * The unit-type filter of the intervals, services and service-object lists (spec §3 "Unit" types; the
 * client's entry of units with no type): the values kept in the URL's `ut` parameter and the match of a
 * unit's type. The control is components/UnitTypeFilter.tsx. Pure.
 */

/** At most this many unit types can be chosen in a filter. */
export const MAX_UNIT_TYPES = 5;

/** The filter value of units with no type (spec §3: the client's entry with id null). */
export const UNKNOWN_TYPE = 'none';
export type UnitTypeFilter = number | typeof UNKNOWN_TYPE;

/**
 * Reads `ut` (`3,7,none`): bad values and repeats are dropped, at most MAX_UNIT_TYPES are kept, and
 * 'none' only where the list offers it (`withUnknown`).
 */
export function decodeUnitTypes(value: string | null, withUnknown: true): UnitTypeFilter[];
export function decodeUnitTypes(value: string | null, withUnknown?: false): number[];
export function decodeUnitTypes(value: string | null, withUnknown = false): UnitTypeFilter[] {
  const parts = (value ?? '')
    .split(',')
    .filter((s) => /^\d+$/.test(s) || (withUnknown && s === UNKNOWN_TYPE));
  const types = parts.map((s): UnitTypeFilter => (s === UNKNOWN_TYPE ? UNKNOWN_TYPE : Number(s)));
  return [...new Set(types)].slice(0, MAX_UNIT_TYPES);
}

/** The `ut` value of a choice ('' for none chosen: the caller drops the parameter). */
export function encodeUnitTypes(types: readonly UnitTypeFilter[]): string {
  return [...new Set(types)].slice(0, MAX_UNIT_TYPES).join(',');
}

/** Whether a unit of `type` (null or undefined: no type) passes the chosen types; none chosen passes all. */
export function matchesUnitTypes(types: readonly UnitTypeFilter[], type: number | null | undefined): boolean {
  if (types.length === 0) return true;
  return types.includes(type === null || type === undefined ? UNKNOWN_TYPE : type);
}

/** The phrase of a unit type's name (`intervals.vehicle.Truck`); names without one show as they are. */
export const unitTypeKey = (name: string) => `intervals.vehicle.${name}`;
