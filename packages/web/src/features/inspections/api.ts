import type {
  InspectionFormBody,
  InspectionFormUpdateBody,
  InspectionListQuery,
  InspectionSubmitBody,
  InspectionUpdateBody,
} from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * Inspection forms and inspections (core routes/inspections.ts): keyed under the fleet's `inspection`
 * collection, so that its live events refresh every list, form and inspection read here.
 */
const base = (fid: number) => queryKeys.collection(fid, 'inspection');
export const inspectionKeys = {
  forms: (fid: number) => [...base(fid), 'forms'] as const,
  list: (fid: number, q: InspectionListQuery) => [...base(fid), 'list', q] as const,
  one: (fid: number, id: number) => [...base(fid), 'one', id] as const,
  settings: (fid: number) => [...base(fid), 'settings'] as const,
};

function useInvalidate(fid: number) {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: base(fid) });
}

export function useInspectionForms(fid: number | null) {
  return useQuery({
    queryKey: inspectionKeys.forms(fid ?? 0),
    enabled: fid !== null,
    queryFn: async ({ signal }) => (await client.inspectionForms.list(fid ?? 0, { signal })).forms,
  });
}

export function useInspections(fid: number | null, q: InspectionListQuery) {
  return useQuery({
    queryKey: inspectionKeys.list(fid ?? 0, q),
    enabled: fid !== null,
    queryFn: async ({ signal }) => (await client.inspections.list(fid ?? 0, q, { signal })).inspections,
  });
}

export function useInspection(fid: number | null, id: number | null) {
  return useQuery({
    queryKey: inspectionKeys.one(fid ?? 0, id ?? 0),
    enabled: fid !== null && id !== null,
    queryFn: ({ signal }) => client.inspections.get(fid ?? 0, id ?? 0, { signal }),
  });
}

export function useSubmitInspection(fid: number) {
  const invalidate = useInvalidate(fid);
  return useMutation({
    mutationFn: (body: InspectionSubmitBody) => client.inspections.submit(fid, body),
    onSettled: invalidate,
  });
}

export function useUpdateInspection(fid: number) {
  const invalidate = useInvalidate(fid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: InspectionUpdateBody }) =>
      client.inspections.update(fid, id, body),
    onSettled: invalidate,
  });
}

export function useDeleteInspection(fid: number) {
  const invalidate = useInvalidate(fid);
  return useMutation({
    mutationFn: (id: number) => client.inspections.remove(fid, id),
    onSettled: invalidate,
  });
}

export function useSaveForm(fid: number) {
  const invalidate = useInvalidate(fid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: InspectionFormBody | InspectionFormUpdateBody }) =>
      id === null
        ? client.inspectionForms.create(fid, body as InspectionFormBody)
        : client.inspectionForms.update(fid, id, body as InspectionFormUpdateBody),
    onSettled: invalidate,
  });
}

export function useDeleteForm(fid: number) {
  const invalidate = useInvalidate(fid);
  return useMutation({
    mutationFn: (id: number) => client.inspectionForms.remove(fid, id),
    onSettled: invalidate,
  });
}

/** The URL of an inspection's image (a photo or a signature), fetched with the session by `AuthImage`. */
export const imageUrl = (fid: number, id: number, aid: number) => client.inspections.image.url(fid, id, aid);
