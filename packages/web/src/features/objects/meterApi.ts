import type { MeterChangeReply, MeterCorrectionBody, MeterListReply } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * A unit's meter history (issue 14; core contracts/meter.ts): keyed under the units, so that a unit
 * event (an accepted reading, a correction, a change by someone else) refreshes it.
 */
const meterKey = (fid: number, unitId: number) =>
  [...queryKeys.collection(fid, 'avl_unit'), 'meter', unitId] as const;

export function useMeter(fid: number | null, unitId: number) {
  return useQuery({
    queryKey: meterKey(fid ?? 0, unitId),
    queryFn: async ({ signal }) =>
      (await api<MeterListReply>(`/api/fleets/${fid}/units/${unitId}/meter`, { signal })).entries,
    enabled: fid !== null,
  });
}

/** Accepting a refused reading and entering a correction; both refresh the units and the history. */
export function useMeterChanges(fid: number | null, unitId: number) {
  const client = useQueryClient();
  const settle = () => client.invalidateQueries({ queryKey: queryKeys.collection(fid ?? 0, 'avl_unit') });
  const base = `/api/fleets/${fid}/units/${unitId}/meter`;
  const accept = useMutation({
    mutationFn: (readingId: number) =>
      api<MeterChangeReply>(`${base}/${readingId}/accept`, { method: 'POST', body: {} }),
    onSettled: settle,
  });
  const correct = useMutation({
    mutationFn: (body: MeterCorrectionBody) => api<MeterChangeReply>(base, { method: 'POST', body }),
    onSettled: settle,
  });
  return { accept, correct };
}
