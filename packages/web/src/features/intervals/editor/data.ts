import type { ObjectType, PersonWire, UnitWire } from '@fleetkeep/core';
import { useIntervals } from '../../../lib/fleetData.ts';

/**
 * The editor's server data, each keyed under its collection with the same key and shape as the other
 * screens (intervals list, unit screens, placeholders), so caches are shared and live events refresh them.
 */

export const useIntervalList = (fid: number | null) => useIntervals(fid);

/** The parts of units, drivers and trailers the editor reads (server `unitToWire`, `personToWire`). */
export type PickerUnit = Pick<UnitWire, 'id' | 'nm' | 'cnm' | 'cneh'>;
export type PickerPerson = Pick<PersonWire, 'id' | 'n'>;

/** A service object the picker and the assignment list show. */
export interface FleetObject {
  id: number;
  t: ObjectType;
  name: string;
  mileage: number | null;
  engineHours: number | null;
}

export function fleetObjects(
  units: readonly PickerUnit[],
  drivers: readonly PickerPerson[],
  trailers: readonly PickerPerson[],
): FleetObject[] {
  return [
    ...units.map((u) => ({
      id: u.id,
      t: 'u' as const,
      name: u.nm,
      mileage: u.cnm,
      engineHours: u.cneh,
    })),
    ...drivers.map((d) => ({ id: d.id, t: 'd' as const, name: d.n, mileage: null, engineHours: null })),
    ...trailers.map((d) => ({ id: d.id, t: 't' as const, name: d.n, mileage: null, engineHours: null })),
  ];
}
