import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../../lib/client.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';
import type { ReportMailSendBody } from './rules.ts';

/**
 * The report-mail calls (spec §7 "Report mails"; core routes/reportmails.ts): list, create, change,
 * delete and "send now".
 */

const key = (fid: number) => [...queryKeys.fleet(fid), 'reportmails'] as const;

export function useReportMails(fid: number) {
  return useQuery({
    queryKey: key(fid),
    queryFn: async () => (await client.reportmails.list(fid)).reportmails,
    retry: false,
  });
}

/** The body is the draft's (rules.ts `mailBody`), typed by the core contract. */
export function useSaveReportMail(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ReportMailSendBody }) =>
      id === null ? client.reportmails.create(fid, body) : client.reportmails.update(fid, id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key(fid) }),
  });
}

export function useDeleteReportMail(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => client.reportmails.remove(fid, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key(fid) }),
  });
}

export function useSendReportMail(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => client.reportmails.send(fid, id, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key(fid) }),
  });
}
