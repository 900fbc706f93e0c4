import {
  type PersonWire as FullPerson,
  type UnitWire as FullUnit,
  useIntervals,
} from '../../../lib/fleetData.ts';
import type { EditorInterval, ObjectType } from './rules.ts';

/**
 * The editor's server data, each keyed under its collection with the same key and shape as the other
 * screens (intervals list, unit screens, placeholders), so caches are shared and live events refresh them.
 */

export const useIntervalList = (fid: number | null) => useIntervals<EditorInterval>(fid);

/** The parts of units, drivers and trailers the editor reads (server `unitToWire`, `personToWire`). */
export type UnitWire = Pick<FullUnit, 'id' | 'nm' | 'cnm' | 'cneh'>;
export type PersonWire = Pick<FullPerson, 'id' | 'n'>;

/** A service object the picker and the assignment list show. */
export interface FleetObject {
  id: number;
  t: ObjectType;
  name: string;
  mileage: number | null;
  engineHours: number | null;
}

export function fleetObjects(
  units: readonly UnitWire[],
  drivers: readonly PersonWire[],
  trailers: readonly PersonWire[],
): FleetObject[] {
  return [
    ...units.map((u) => ({
      id: u.id,
      t: 'u' as const,
      name: u.nm,
      mileage: u.cnm ?? 0,
      engineHours: u.cneh ?? 0,
    })),
    ...drivers.map((d) => ({ id: d.id, t: 'd' as const, name: d.n, mileage: null, engineHours: null })),
    ...trailers.map((d) => ({ id: d.id, t: 't' as const, name: d.n, mileage: null, engineHours: null })),
  ];
}
