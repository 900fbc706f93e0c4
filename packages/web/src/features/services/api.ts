import type {
  ServiceArchivePatch,
  ServiceBatchUpdateRow,
  ServiceCreateInput,
  ServiceStatusBatchBody,
  ServiceUpdateInput,
} from '@fleetkeep/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { serviceKeys, useInvalidateServices } from '../../lib/services.ts';

/**
 * The services calls that change data (spec §7 "Services"), for the list (`list/`), the close screen
 * (`close/`) and the editor (`editor/`); each invalidates the service key family of lib/services.ts,
 * where the read hooks live. Bodies and replies are typed by the core contract (contracts/services.ts).
 */

/** Status values the batch status call takes: In progress, Closed, Rejected (spec §4). */
export type BatchStatus = ServiceStatusBatchBody['f'];

/**
 * POST .../services/status/batch: In progress (2), Close (8, one end date, each object's current
 * counters) or Reject (16) the given services. Atomic: a refusal (409 with ids) changes nothing.
 */
export function useBatchStatus(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (input: { f: BatchStatus; ids: number[]; end_date?: ServiceStatusBatchBody['end_date'] }) =>
      client.services.statusMany(fid ?? 0, {
        f: input.f,
        services: input.ids,
        ...(input.end_date !== undefined && { end_date: input.end_date }),
      }),
    onSettled: invalidate,
  });
}

/** PUT .../services/batch: update many open services at once (atomic, per-row errors with `row`). */
export function useBatchUpdate(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (rows: ServiceBatchUpdateRow[]) => client.services.updateMany(fid ?? 0, { services: rows }),
    onSettled: invalidate,
  });
}

/** DELETE .../services/archived/batch: delete archived services (archiveDelete, atomic). */
export function useDeleteArchived(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (ids: number[]) => client.services.removeArchivedMany(fid ?? 0, { services: ids }),
    onSettled: invalidate,
  });
}

// Editor calls (spec §7 "Services"): create, batch create, update, archive corrections, attachments.

/** POST .../services: one service, created as Due, In progress or Closed (spec §4). */
export function useCreateService(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (body: ServiceCreateInput) => client.services.create(fid ?? 0, body),
    onSettled: invalidate,
  });
}

/** POST .../services/batch: one service per object, atomic (all or none, per-row errors with `row`). */
export function useCreateServices(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (services: ServiceCreateInput[]) => client.services.createMany(fid ?? 0, { services }),
    onSettled: invalidate,
  });
}

/** PUT .../services/{id}: an open service; status changes follow the server's transition rules. */
export function useUpdateService(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ServiceUpdateInput }) =>
      client.services.update(fid ?? 0, id, body),
    onSettled: invalidate,
  });
}

/** PUT .../services/archived/{id}: corrections of a closed or rejected service (archiveEdit). */
export function useUpdateArchived(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ServiceArchivePatch }) =>
      client.services.updateArchived(fid ?? 0, id, body),
    onSettled: invalidate,
  });
}

export const attachmentsKey = (fid: number, id: number) =>
  [...serviceKeys.one(fid, id), 'attachments'] as const;

/** GET .../services/{id}/attachments. */
export function useServiceAttachments(fid: number | null, id: number | null) {
  return useQuery({
    queryKey: attachmentsKey(fid ?? 0, id ?? 0),
    queryFn: async ({ signal }) =>
      (await client.services.attachments(fid ?? 0, id ?? 0, { signal })).attachments,
    enabled: fid !== null && id !== null,
  });
}

/** DELETE .../services/{id}/attachments/{aid}. */
export function useDeleteAttachment(fid: number | null, id: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (aid: number) => client.services.attachmentRemove(fid ?? 0, id ?? 0, aid),
    onSettled: invalidate,
  });
}
