import type { FuelFillingCreateInput, FuelFillingUpdateInput } from '@fleetkeep/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { fuelKeys, useInvalidateFuel } from '../../lib/fuel.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * The fuel filling calls that change data (spec §7 "Fuel fillings"), and the attachments and fuel
 * presets the editor reads; the read hooks of the lists and of one filling live in lib/fuel.ts (shared
 * with the unit page). Each write refreshes the fuel key family and the unit statistics. Bodies and
 * replies are the core contract's types.
 */

/** POST .../fuel-fillings. */
export function useCreateFilling(fid: number) {
  const invalidate = useInvalidateFuel(fid);
  return useMutation({
    mutationFn: (body: FuelFillingCreateInput) => client.fuel.create(fid, body),
    onSettled: invalidate,
  });
}

/** PUT .../fuel-fillings/{id}: the changed fields. */
export function useUpdateFilling(fid: number) {
  const invalidate = useInvalidateFuel(fid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: FuelFillingUpdateInput }) =>
      client.fuel.update(fid, id, body),
    onSettled: invalidate,
  });
}

/** DELETE .../fuel-fillings/{id} (deleteFuelfilling, spec §6). */
export function useDeleteFilling(fid: number | null) {
  const invalidate = useInvalidateFuel(fid);
  return useMutation({
    mutationFn: (id: number) => client.fuel.remove(fid ?? 0, id),
    onSettled: invalidate,
  });
}

/** GET .../fuel-fillings/{id}/attachments. */
export function useFuelAttachments(fid: number, id: number) {
  return useQuery({
    queryKey: fuelKeys.attachments(fid, id),
    queryFn: async ({ signal }) => (await client.fuel.attachments(fid, id, { signal })).attachments,
  });
}

/** DELETE .../fuel-fillings/{id}/attachments/{aid}. */
export function useDeleteFuelAttachment(fid: number, id: number) {
  const invalidate = useInvalidateFuel(fid);
  return useMutation({
    mutationFn: (aid: number) => client.fuel.attachmentRemove(fid, id, aid),
    onSettled: invalidate,
  });
}

/** GET .../line_items/fuel_presets: fuel types the library offers before it holds them (one cache entry). */
export function useFuelPresets(fid: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.fuelPresets(fid),
    queryFn: async ({ signal }) => (await client.lineitems.fuelPresets(fid, { signal })).fuel_presets,
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
}
