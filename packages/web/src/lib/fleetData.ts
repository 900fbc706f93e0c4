import type {
  Collection,
  CustomFieldWire,
  IntervalWire,
  LineItemWire,
  PersonWire,
  UnitWire,
} from '@fleetkeep/core';
import { useQuery } from '@tanstack/react-query';
import { client } from './client.ts';
import { queryKeys } from './queryKeys.ts';

/**
 * The current fleet's lists that many screens read: one query per collection, keyed under it (live
 * events invalidate it; the map patches unit positions into it), holding the array of wire records.
 * Every screen reads them through these hooks, so they share one cache entry and one request. The
 * records are the wire types of the core contracts (`UnitWire`, `PersonWire`, `IntervalWire`,
 * `LineItemWire`, `CustomFieldWire`); a screen may type them narrower with a `Pick` of those
 * (`useUnits<Pick<UnitWire, 'id' | 'nm'>>`): it reads a part of the same objects.
 */
function useFleetList<T>(
  fid: number | null,
  collection: Collection,
  read: (fid: number, options: { signal: AbortSignal }) => Promise<Record<string, unknown>>,
  field: string,
) {
  return useQuery({
    queryKey: queryKeys.collection(fid ?? 0, collection),
    queryFn: async ({ signal }) => ((await read(fid ?? 0, { signal }))[field] ?? []) as T[],
    enabled: fid !== null,
  });
}

export const useUnits = <T = UnitWire>(fid: number | null) =>
  useFleetList<T>(fid, 'avl_unit', client.fleets.units, 'units');
/** Drivers or trailers: one hook for either, for screens that show one kind by a prop. */
export const usePeople = <T = PersonWire>(fid: number | null, kind: 'drivers' | 'trailers') =>
  useFleetList<T>(
    fid,
    kind === 'drivers' ? 'driver' : 'trailer',
    kind === 'drivers' ? client.fleets.drivers : client.fleets.trailers,
    kind,
  );
export const useDrivers = <T = PersonWire>(fid: number | null) => usePeople<T>(fid, 'drivers');
export const useTrailers = <T = PersonWire>(fid: number | null) => usePeople<T>(fid, 'trailers');
/** Intervals; a screen may type the part it reads. */
export const useIntervals = <T = IntervalWire>(fid: number | null) =>
  useFleetList<T>(fid, 'interval', client.intervals.list, 'intervals');
export const useLibrary = <T = LineItemWire>(fid: number | null) =>
  useFleetList<T>(fid, 'lineitem', client.lineitems.list, 'line_items');
/** Custom field definitions of every owner type (spec §7 `GET /fleets/{fid}/custom-fields`). */
export const useCustomFields = (fid: number | null) =>
  useFleetList<CustomFieldWire>(fid, 'customfield', client.customfields.list, 'custom_fields');
