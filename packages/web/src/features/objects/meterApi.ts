import type { MeterCorrectionBody, MeterReadingBody, MeterVoidBody } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * A unit's meter history (PRODUCT.md "Service objects and counters"; core routes/meter.ts): keyed under the units, so that a unit
 * event (an accepted reading, a correction, a change by someone else) refreshes it.
 */
const meterKey = (fid: number, unitId: number) =>
  [...queryKeys.collection(fid, 'avl_unit'), 'meter', unitId] as const;

export function useMeter(fid: number | null, unitId: number) {
  return useQuery({
    queryKey: meterKey(fid ?? 0, unitId),
    queryFn: async ({ signal }) => (await client.meter.list(fid ?? 0, unitId, {}, { signal })).entries,
    enabled: fid !== null,
  });
}

/** The manager's changes of the history; each refreshes the units and the history. */
export function useMeterChanges(fid: number | null, unitId: number) {
  const queryClient = useQueryClient();
  const settle = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid ?? 0, 'avl_unit') });
  const accept = useMutation({
    mutationFn: (readingId: number) => client.meter.accept(fid ?? 0, unitId, readingId, {}),
    onSettled: settle,
  });
  const correct = useMutation({
    mutationFn: (body: MeterCorrectionBody) => client.meter.correct(fid ?? 0, unitId, body),
    onSettled: settle,
  });
  // Meter integrity (docs/product.md): void and restore a reading, record one by hand, meter replaced.
  const voidReading = useMutation({
    mutationFn: ({ id, body }: { id: number; body: MeterVoidBody }) =>
      client.meter.void(fid ?? 0, unitId, id, body),
    onSettled: settle,
  });
  const restore = useMutation({
    mutationFn: (readingId: number) => client.meter.restore(fid ?? 0, unitId, readingId, {}),
    onSettled: settle,
  });
  const record = useMutation({
    mutationFn: (body: MeterReadingBody) => client.meter.record(fid ?? 0, unitId, body),
    onSettled: settle,
  });
  const replaced = useMutation({
    mutationFn: () => client.meter.replaced(fid ?? 0, unitId, {}),
    onSettled: settle,
  });
  return { accept, correct, voidReading, restore, record, replaced };
}
