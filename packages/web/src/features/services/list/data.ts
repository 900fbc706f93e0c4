import type { ObjectType, UnitWire } from '@fleetkeep/core';
import { useMemo } from 'react';
import { useDrivers, useIntervals, useTrailers, useUnits } from '../../../lib/fleetData.ts';

/**
 * The objects and intervals the services screens name. Each query uses the same key and shape as the
 * other screens of its collection (an array of wire objects), so they share one cache entry.
 */

/** The part of a unit the services screens read. */
export type UnitRow = Pick<UnitWire, 'id' | 'nm' | 'ut' | 'cnm' | 'cneh'>;

export interface Lookups {
  units: Map<number, UnitRow>;
  /** The units list has answered (or failed): counters defaults can be read. */
  unitsLoaded: boolean;
  objectName: (t: ObjectType, id: number) => string | undefined;
  intervalName: (id: number | null) => string | undefined;
}

/** Names of the fleet's units, drivers, trailers and intervals, for the services tables. */
export function useLookups(fid: number | null): Lookups {
  const units = useUnits(fid);
  const drivers = useDrivers(fid);
  const trailers = useTrailers(fid);
  const intervals = useIntervals<{ id: number; n: string }>(fid);
  return useMemo(() => {
    const unitMap = new Map((units.data ?? []).map((u) => [u.id, u]));
    const driverMap = new Map((drivers.data ?? []).map((d) => [d.id, d.n]));
    const trailerMap = new Map((trailers.data ?? []).map((d) => [d.id, d.n]));
    const intervalMap = new Map((intervals.data ?? []).map((i) => [i.id, i.n]));
    return {
      units: unitMap,
      unitsLoaded: !units.isPending,
      objectName: (t, id) =>
        t === 'u' ? unitMap.get(id)?.nm : t === 'd' ? driverMap.get(id) : trailerMap.get(id),
      intervalName: (id) => (id === null ? undefined : intervalMap.get(id)),
    };
  }, [units.data, units.isPending, drivers.data, trailers.data, intervals.data]);
}

/** The page of an object: /unit, /driver or /trailer (spec §2). */
export function objectPath(t: ObjectType, id: number): string {
  return `/${t === 'u' ? 'unit' : t === 'd' ? 'driver' : 'trailer'}/${id}`;
}
