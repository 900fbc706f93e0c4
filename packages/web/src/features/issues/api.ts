import type { IssueCreateInput, IssueListQuery } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * The issues calls (core routes/issues.ts), keyed under the fleet's `issue` collection so that the live
 * events of any issue refresh the lists, the issue page and the unit's tab.
 */
const issuesKey = (fid: number) => queryKeys.collection(fid, 'issue');

/** Query of the list as the client sends it (comma lists for status and priority). */
export type IssueQuery = Omit<IssueListQuery, 'status' | 'priority'> & { status?: string; priority?: string };

export function useIssues(fid: number | null, query: IssueQuery) {
  return useQuery({
    queryKey: [...issuesKey(fid ?? 0), 'list', query],
    queryFn: async ({ signal }) => client.issues.list(fid ?? 0, query, { signal }),
    enabled: fid !== null,
  });
}

export function useIssue(fid: number | null, id: number) {
  return useQuery({
    queryKey: [...issuesKey(fid ?? 0), 'one', id],
    queryFn: async ({ signal }) => client.issues.get(fid ?? 0, id, { signal }),
    enabled: fid !== null && id > 0,
  });
}

export function useIssuePhotos(fid: number, id: number) {
  return useQuery({
    queryKey: [...issuesKey(fid), 'photos', id],
    queryFn: async ({ signal }) => (await client.issues.attachments(fid, id, { signal })).attachments,
  });
}

export function useInvalidateIssues(fid: number | null) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: issuesKey(fid ?? 0) });
}

export function useReportIssue(fid: number) {
  const invalidate = useInvalidateIssues(fid);
  return useMutation({
    mutationFn: (body: IssueCreateInput) => client.issues.create(fid, body),
    onSettled: invalidate,
  });
}

/** resolve, close (with the note) and reopen. */
export function useIssueAction(fid: number, id: number) {
  const invalidate = useInvalidateIssues(fid);
  return useMutation({
    mutationFn: ({ action, note }: { action: 'resolve' | 'close' | 'reopen'; note?: string }) =>
      action === 'close'
        ? client.issues.close(fid, id, { note: note ?? '' })
        : action === 'resolve'
          ? client.issues.resolve(fid, id, note ? { note } : {})
          : client.issues.reopen(fid, id, {}),
    onSettled: invalidate,
  });
}

export function useDeleteIssue(fid: number) {
  const invalidate = useInvalidateIssues(fid);
  return useMutation({ mutationFn: (id: number) => client.issues.remove(fid, id), onSettled: invalidate });
}

export function useDeleteIssuePhoto(fid: number, id: number) {
  const invalidate = useInvalidateIssues(fid);
  return useMutation({
    mutationFn: (aid: number) => client.issues.attachmentRemove(fid, id, aid),
    onSettled: invalidate,
  });
}
