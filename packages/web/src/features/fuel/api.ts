import type {
  FuelAttachmentWire,
  FuelFillingCreateInput,
  FuelFillingUpdateInput,
  FuelFillingWire,
  LineItemFuelPresetWire,
} from '@fleetkeep/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { fuelKeys, fuelPath, useInvalidateFuel } from '../../lib/fuel.ts';
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
    mutationFn: (body: FuelFillingCreateInput) =>
      api<FuelFillingWire>(fuelPath(fid), { method: 'POST', body }),
    onSettled: invalidate,
  });
}

/** PUT .../fuel-fillings/{id}: the changed fields. */
export function useUpdateFilling(fid: number) {
  const invalidate = useInvalidateFuel(fid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: FuelFillingUpdateInput }) =>
      api<FuelFillingWire>(`${fuelPath(fid)}/${id}`, { method: 'PUT', body }),
    onSettled: invalidate,
  });
}

/** DELETE .../fuel-fillings/{id} (deleteFuelfilling, spec §6). */
export function useDeleteFilling(fid: number | null) {
  const invalidate = useInvalidateFuel(fid);
  return useMutation({
    mutationFn: (id: number) => api(`${fuelPath(fid ?? 0)}/${id}`, { method: 'DELETE' }),
    onSettled: invalidate,
  });
}

/** The path of a filling's attachments (downloads need the session header: fetched, not linked). */
export const attachmentsPath = (fid: number, id: number) => `${fuelPath(fid)}/${id}/attachments`;

/** GET .../fuel-fillings/{id}/attachments. */
export function useFuelAttachments(fid: number, id: number) {
  return useQuery({
    queryKey: fuelKeys.attachments(fid, id),
    queryFn: async ({ signal }) =>
      (await api<{ attachments: FuelAttachmentWire[] }>(attachmentsPath(fid, id), { signal })).attachments,
  });
}

/** DELETE .../fuel-fillings/{id}/attachments/{aid}. */
export function useDeleteFuelAttachment(fid: number, id: number) {
  const invalidate = useInvalidateFuel(fid);
  return useMutation({
    mutationFn: (aid: number) => api(`${attachmentsPath(fid, id)}/${aid}`, { method: 'DELETE' }),
    onSettled: invalidate,
  });
}

/** GET .../line_items/fuel_presets: fuel types the library offers before it holds them (one cache entry). */
export function useFuelPresets(fid: number) {
  return useQuery({
    queryKey: queryKeys.fuelPresets(fid),
    queryFn: async ({ signal }) =>
      (
        await api<{ fuel_presets: LineItemFuelPresetWire[] }>(`/api/fleets/${fid}/line_items/fuel_presets`, {
          signal,
        })
      ).fuel_presets,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
