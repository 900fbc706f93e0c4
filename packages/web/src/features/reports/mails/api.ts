import type { ReportMailListReply, ReportMailSendReply, ReportMailWire } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

/**
 * The report-mail calls (spec §7 "Report mails"; core contracts/reportmails.ts): GET and POST
 * `/api/fleets/{fid}/reportmails`, PUT and DELETE `/{id}`, POST `/{id}/send` ("send now").
 */

const key = (fid: number) => [...queryKeys.fleet(fid), 'reportmails'] as const;
const base = (fid: number) => `/api/fleets/${fid}/reportmails`;

export function useReportMails(fid: number) {
  return useQuery({
    queryKey: key(fid),
    queryFn: async () => (await api<ReportMailListReply>(base(fid))).reportmails,
    retry: false,
  });
}

export function useSaveReportMail(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Record<string, unknown> }) =>
      id === null
        ? api<ReportMailWire>(base(fid), { method: 'POST', body })
        : api<ReportMailWire>(`${base(fid)}/${id}`, { method: 'PUT', body }),
    onSettled: () => client.invalidateQueries({ queryKey: key(fid) }),
  });
}

export function useDeleteReportMail(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`${base(fid)}/${id}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: key(fid) }),
  });
}

export function useSendReportMail(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api<ReportMailSendReply>(`${base(fid)}/${id}/send`, { method: 'POST', body: {} }),
    onSettled: () => client.invalidateQueries({ queryKey: key(fid) }),
  });
}
