import type {
  DocumentCreateInput,
  DocumentListQuery,
  DocumentRenewInput,
  DocumentUpdateInput,
} from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** The documents screens' reads and writes (core routes/documents.ts); writes refresh every document query. */

export const documentsKey = (fid: number) => [...queryKeys.fleet(fid), 'documents'] as const;

type ListQuery = Partial<Record<keyof DocumentListQuery, string>>;

export function useDocuments(fid: number | null, query: ListQuery) {
  return useQuery({
    queryKey: [...documentsKey(fid ?? 0), 'list', query],
    enabled: fid !== null,
    queryFn: async ({ signal }) =>
      (await client.documents.list(fid ?? 0, query as never, { signal })).documents,
  });
}

export function useDocument(fid: number | null, id: number) {
  return useQuery({
    queryKey: [...documentsKey(fid ?? 0), 'one', id],
    enabled: fid !== null && id > 0,
    queryFn: ({ signal }) => client.documents.get(fid ?? 0, id, { signal }),
  });
}

export function useDocumentTypes(fid: number | null) {
  return useQuery({
    queryKey: [...documentsKey(fid ?? 0), 'types'],
    enabled: fid !== null,
    staleTime: 60_000,
    queryFn: async ({ signal }) => (await client.documents.types(fid ?? 0, { signal })).types,
  });
}

export function useDocumentFiles(fid: number, id: number) {
  return useQuery({
    queryKey: [...documentsKey(fid), 'files', id],
    queryFn: async ({ signal }) => (await client.documents.attachments(fid, id, { signal })).attachments,
  });
}

function useRefresh(fid: number | null) {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: documentsKey(fid ?? 0) });
}

export function useInvalidateDocuments(fid: number | null) {
  return useRefresh(fid);
}

export function useCreateDocument(fid: number | null) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (body: DocumentCreateInput) => client.documents.create(fid ?? 0, body),
    onSuccess: refresh,
  });
}

export function useUpdateDocument(fid: number | null, id: number) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (body: DocumentUpdateInput) => client.documents.update(fid ?? 0, id, body),
    onSuccess: refresh,
  });
}

export function useRenewDocument(fid: number | null, id: number) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (body: DocumentRenewInput) => client.documents.renew(fid ?? 0, id, body),
    onSuccess: refresh,
  });
}

export function useDeleteDocument(fid: number | null, id: number) {
  const refresh = useRefresh(fid);
  return useMutation({ mutationFn: () => client.documents.remove(fid ?? 0, id), onSuccess: refresh });
}

export function useDeleteDocumentFile(fid: number, id: number) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (aid: number) => client.documents.attachmentRemove(fid, id, aid),
    onSuccess: refresh,
  });
}

export function useCreateDocumentType(fid: number | null) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (body: { name: string; reminder_days?: number }) =>
      client.documents.typeCreate(fid ?? 0, body),
    onSuccess: refresh,
  });
}
