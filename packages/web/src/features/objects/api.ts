import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import {
  useIntervals as useFleetIntervals,
  usePeople as useFleetPeople,
  useUnits as useFleetUnits,
} from '../../lib/fleetData.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import {
  type BaseWire,
  type IntervalWire,
  KIND_INFO,
  type ObjectKind,
  type PersonWire,
  type ServiceWire,
  type UnitStatisticsWire,
  type UnitWire,
} from './rules.ts';

/**
 * Server data of the object screens: the fleet's lists through lib/fleetData.ts (one cache entry per
 * collection for every screen), typed as these screens read them, and the per-object queries.
 */

export const useUnits = (fid: number | null) => useFleetUnits<UnitWire>(fid);
export const usePeople = (fid: number | null, kind: 'drivers' | 'trailers') =>
  useFleetPeople<PersonWire>(fid, kind);
export const useIntervals = (fid: number | null) => useFleetIntervals<IntervalWire>(fid);

/** The interval baselines of one object; reset baselines arrive as interval events. */
export function useBases(fid: number | null, kind: ObjectKind, id: number, enabled: boolean) {
  const { path, t } = KIND_INFO[kind];
  return useQuery({
    queryKey: [...queryKeys.collection(fid ?? 0, 'interval'), 'object-bases', t, id],
    queryFn: async ({ signal }) =>
      (await api<{ bases: BaseWire[] }>(`/api/fleets/${fid}/${path}/${id}/bases`, { signal })).bases,
    enabled: fid !== null && enabled,
  });
}

/** The open services of one object (spec §4 "Active group"). */
export function useOpenServices(fid: number | null, kind: ObjectKind, id: number, enabled: boolean) {
  const { t } = KIND_INFO[kind];
  return useQuery({
    queryKey: [...queryKeys.collection(fid ?? 0, 'service'), 'object-open', t, id],
    queryFn: async ({ signal }) =>
      (
        await api<{ services: ServiceWire[] }>(
          `/api/fleets/${fid}/services?object_type=${t}&object_id=${id}`,
          { signal },
        )
      ).services,
    enabled: fid !== null && enabled,
  });
}

/** The fleet's archive (closed and rejected services) ending in the range; the caller picks its object. */
export function useArchive(fid: number | null, from: string, to: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.collection(fid ?? 0, 'service'), 'objects-archive', from, to],
    queryFn: async ({ signal }) =>
      (
        await api<{ services: ServiceWire[] }>(
          `/api/fleets/${fid}/services/archived?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
          { signal },
        )
      ).services,
    enabled: fid !== null && enabled,
  });
}

/**
 * A unit's figures over a period (GET /api/fleets/{fid}/units/{uid}/statistics, spec §7 "Fleet"): km
 * driven, engine hours, closed services and fuel costs. Keyed under the units: unit events refresh it,
 * service events too (lib/queryKeys.ts `keysForEvent`). Unit messages are patched into the units list
 * rather than invalidating it (features/map/livePatch.ts), so the unit's live counters are part of the
 * key: when they move, the figures are fetched again, the previous ones shown meanwhile.
 */
export function useUnitStatistics(
  fid: number | null,
  unit: { id: number; cnm?: number; cneh?: number } | null,
  from: string,
  to: string,
) {
  return useQuery({
    queryKey: [...queryKeys.statistics(fid ?? 0), 'unit', unit?.id, from, to, unit?.cnm, unit?.cneh],
    queryFn: ({ signal }) =>
      api<UnitStatisticsWire>(
        `/api/fleets/${fid}/units/${unit?.id}/statistics?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
        { signal },
      ),
    enabled: fid !== null && unit !== null,
    placeholderData: keepPreviousData,
  });
}
