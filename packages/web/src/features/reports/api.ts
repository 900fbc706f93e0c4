import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { type ReportState, reportQueryOf } from './rules.ts';

/**
 * GET /api/fleets/{fid}/reports/{type} (core contract `reportReply`). Keyed under the fleet statistics,
 * so the live events that move costs (services, fuel fillings, unit counters) refresh it; the previous
 * report stays on screen while the next one loads.
 */
export function useReport(fid: number | null, state: ReportState, enabled: boolean) {
  const query = reportQueryOf(state);
  return useQuery({
    queryKey: [...queryKeys.statistics(fid ?? 0), 'report', state.type, query],
    queryFn: ({ signal }) => client.reports.get(fid ?? 0, state.type, query, { signal }),
    enabled: fid !== null && enabled,
    placeholderData: keepPreviousData,
  });
}
