import type { Collection } from '@fleetkeep/core';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import { queryKeys } from './queryKeys.ts';

/**
 * The current fleet's lists that many screens read: one query per collection, keyed under it (live
 * events invalidate it; the map patches unit positions into it), holding the array of wire records.
 * Every screen reads them through these hooks, so they share one cache entry and one request. A screen
 * may type the records narrower (`useUnits<{ id: number; nm: string }>`): it reads a part of the same
 * objects.
 */
function useFleetList<T>(fid: number | null, collection: Collection, path: string, field: string) {
  return useQuery({
    queryKey: queryKeys.collection(fid ?? 0, collection),
    queryFn: async ({ signal }) =>
      (await api<Record<string, T[] | undefined>>(`/api/fleets/${fid}/${path}`, { signal }))[field] ?? [],
    enabled: fid !== null,
  });
}

/** A unit (server fleets/mappers.ts `unitToWire`): counters in km and hours, `ins` 1 while in service. */
export interface UnitWire {
  id: number;
  nm: string;
  fid: number | null;
  uid: string;
  ut: number | null;
  cnm: number;
  cneh: number;
  acnm: number;
  aceh: number;
  prp: Record<string, unknown>;
  prms: Record<string, unknown>;
  lmsg: { t: number; p: Record<string, unknown> } | null;
  pos: { t: number; y: number; x: number; s: number; c: number; z: number } | null;
  cf: { id: number; v: string }[];
  ins: number;
}

/** A driver or a trailer (`personToWire`). */
export interface PersonWire {
  id: number;
  fid: number | null;
  n: string;
  ds: string;
  c: string;
  cf: { id: number; v: string }[];
  ins: number;
}

/** A library item (parts and labour): name, kind (1 labour, 2 part), cost. */
export interface LibraryItemWire {
  id: number;
  n: string;
  t: number;
  c: number;
}

export const useUnits = <T = UnitWire>(fid: number | null) =>
  useFleetList<T>(fid, 'avl_unit', 'units', 'units');
/** Drivers or trailers: one hook for either, for screens that show one kind by a prop. */
export const usePeople = <T = PersonWire>(fid: number | null, kind: 'drivers' | 'trailers') =>
  useFleetList<T>(fid, kind === 'drivers' ? 'driver' : 'trailer', kind, kind);
export const useDrivers = <T = PersonWire>(fid: number | null) => usePeople<T>(fid, 'drivers');
export const useTrailers = <T = PersonWire>(fid: number | null) => usePeople<T>(fid, 'trailers');
/** Intervals (`intervalToWire`); each screen types the part it reads. */
export const useIntervals = <T>(fid: number | null) =>
  useFleetList<T>(fid, 'interval', 'intervals', 'intervals');
export const useLibrary = <T = LibraryItemWire>(fid: number | null) =>
  useFleetList<T>(fid, 'lineitem', 'line_items', 'line_items');
/** Custom field definitions (spec §7 `GET /fleets/{fid}/custom-fields`); features/customfields types them. */
export const useCustomFieldList = <T>(fid: number | null) =>
  useFleetList<T>(fid, 'customfield', 'custom-fields', 'custom_fields');
