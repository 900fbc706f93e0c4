import { type ObjectType, tagChoices, type UnitWire, unitSearchText } from '@fleetkeep/core';
import { useMemo } from 'react';
import { useDrivers, useIntervals, useTrailers, useUnits } from '../../../lib/fleetData.ts';

/**
 * The objects and intervals the services screens name. Each query uses the same key and shape as the
 * other screens of its collection (an array of wire objects), so they share one cache entry.
 */

/** The part of a unit the services screens read. */
export type UnitRow = Pick<UnitWire, 'id' | 'nm' | 'ut' | 'cnm' | 'cneh'>;

/** Names of objects and intervals: the same object while no name (or unit type) changes. */
export interface Names {
  objectName: (t: ObjectType, id: number) => string | undefined;
  intervalName: (id: number | null) => string | undefined;
  unitType: (id: number) => number | null | undefined;
  /** A unit's tags (docs/product.md "The vehicle profile"); none for an unknown unit. */
  unitTags: (id: number) => readonly string[];
  /** A unit's plate and VIN as the search reads them ('' for none). */
  unitSearch: (id: number) => string;
  /** The distinct tags of the fleet's units, sorted, for the tag filter. */
  tags: readonly string[];
}

export interface Lookups extends Names {
  units: Map<number, UnitRow>;
  /** The units list has answered (or failed): counters defaults can be read. */
  unitsLoaded: boolean;
  /**
   * The names alone, kept the same object while live unit messages move positions and counters: the
   * services table's columns depend on it, so a moving unit does not rebuild the table.
   */
  names: Names;
}

/** Names of the fleet's units, drivers, trailers and intervals, for the services tables. */
export function useLookups(fid: number | null): Lookups {
  const units = useUnits(fid);
  const drivers = useDrivers(fid);
  const trailers = useTrailers(fid);
  const intervals = useIntervals<{ id: number; n: string }>(fid);
  // A key of what the names read: it changes with a name, a unit type, tags, plate or VIN, not with a
  // message.
  const unitKey = useMemo(
    () =>
      JSON.stringify((units.data ?? []).map((u) => [u.id, u.nm, u.ut, u.vp?.tg ?? [], unitSearchText(u.vp)])),
    [units.data],
  );
  const names = useMemo<Names>(() => {
    const unitMap = new Map(
      (JSON.parse(unitKey) as [number, string, number | null, string[], string][]).map(
        ([id, nm, ut, tg, search]) => [id, { nm, ut, tg, search }],
      ),
    );
    const driverMap = new Map((drivers.data ?? []).map((d) => [d.id, d.n]));
    const trailerMap = new Map((trailers.data ?? []).map((d) => [d.id, d.n]));
    const intervalMap = new Map((intervals.data ?? []).map((i) => [i.id, i.n]));
    return {
      objectName: (t, id) =>
        t === 'u' ? unitMap.get(id)?.nm : t === 'd' ? driverMap.get(id) : trailerMap.get(id),
      intervalName: (id) => (id === null ? undefined : intervalMap.get(id)),
      unitType: (id) => unitMap.get(id)?.ut,
      unitTags: (id) => unitMap.get(id)?.tg ?? [],
      unitSearch: (id) => unitMap.get(id)?.search ?? '',
      tags: tagChoices([...unitMap.values()].map((u) => u.tg)),
    };
  }, [unitKey, drivers.data, trailers.data, intervals.data]);
  return useMemo(
    () => ({
      ...names,
      names,
      units: new Map((units.data ?? []).map((u) => [u.id, u])),
      unitsLoaded: !units.isPending,
    }),
    [names, units.data, units.isPending],
  );
}

/** The page of an object: /unit, /driver or /trailer (spec §2). */
export function objectPath(t: ObjectType, id: number): string {
  return `/${t === 'u' ? 'unit' : t === 'd' ? 'driver' : 'trailer'}/${id}`;
}
