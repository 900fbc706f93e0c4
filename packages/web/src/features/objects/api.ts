import type { UnitWire } from '@fleetkeep/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { client } from '../../lib/client.ts';
import {
  useIntervals as useFleetIntervals,
  usePeople as useFleetPeople,
  useUnits as useFleetUnits,
} from '../../lib/fleetData.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { KIND_INFO, type ObjectKind } from './rules.ts';

/**
 * Server data of the object screens: the fleet's lists through lib/fleetData.ts (one cache entry per
 * collection for every screen; core wire types), and the per-object queries. Services
 * come from lib/services.ts, the hooks the services screens use (one key family, one cache entry).
 */

export const useUnits = (fid: number | null) => useFleetUnits(fid);
export const usePeople = (fid: number | null, kind: 'drivers' | 'trailers') => useFleetPeople(fid, kind);
export const useIntervals = (fid: number | null) => useFleetIntervals(fid);

const BASES = {
  unit: client.intervals.unitBases,
  driver: client.intervals.driverBases,
  trailer: client.intervals.trailerBases,
} satisfies Record<ObjectKind, unknown>;

/** The interval baselines of one object; reset baselines arrive as interval events. */
export function useBases(fid: number | null, kind: ObjectKind, id: number, enabled: boolean) {
  const { t } = KIND_INFO[kind];
  return useQuery({
    queryKey: [...queryKeys.collection(fid ?? 0, 'interval'), 'object-bases', t, id],
    queryFn: async ({ signal }) => (await BASES[kind](fid ?? 0, id, { signal })).bases,
    enabled: fid !== null && enabled,
  });
}

/**
 * A unit's figures over a period (GET /api/fleets/{fid}/units/{uid}/statistics, spec §7 "Fleet"): km
 * driven, engine hours, closed services and fuel costs. Keyed under the units: unit events refresh it,
 * service events too (lib/queryKeys.ts `keysForEvent`). Unit messages are patched into the units list
 * rather than invalidating it (lib/liveCache.ts), so the unit's live counters are part of the
 * key: when they move, the figures are fetched again, the previous ones shown meanwhile.
 */
export function useUnitStatistics(
  fid: number | null,
  unit: Pick<UnitWire, 'id' | 'cnm' | 'cneh'> | null,
  from: string,
  to: string,
) {
  return useQuery({
    queryKey: [...queryKeys.statistics(fid ?? 0), 'unit', unit?.id, from, to, unit?.cnm, unit?.cneh],
    queryFn: ({ signal }) => client.statistics.unit(fid ?? 0, unit?.id ?? 0, { from, to }, { signal }),
    enabled: fid !== null && unit !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * The objects that have an expired document, as `u:12` / `t:3` / `d:7` (docs/product.md "Documents"):
 * the objects list flags them. Under the documents' key, so their writes refresh it.
 */
export function useExpiredDocumentOwners(fid: number | null, enabled: boolean): ReadonlySet<string> {
  const list = useQuery({
    queryKey: [...queryKeys.fleet(fid ?? 0), 'documents', 'expired'],
    enabled: fid !== null && enabled,
    queryFn: async ({ signal }) =>
      (await client.documents.list(fid ?? 0, { state: 'expired' }, { signal })).documents,
  });
  return useMemo(() => new Set((list.data ?? []).map((d) => `${d.owner_type}:${d.owner_id}`)), [list.data]);
}
