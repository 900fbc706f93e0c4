import type { ReportWire } from '@fleetkeep/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { type ReportState, reportPath } from './rules.ts';

/**
 * GET /api/fleets/{fid}/reports/{type} (core contract `reportReply`). Keyed under the fleet statistics,
 * so the live events that move costs (services, fuel fillings, unit counters) refresh it; the previous
 * report stays on screen while the next one loads.
 */
export function useReport(fid: number | null, state: ReportState, enabled: boolean) {
  const path = fid === null ? '' : reportPath(fid, state);
  return useQuery({
    queryKey: [...queryKeys.statistics(fid ?? 0), 'report', path],
    queryFn: ({ signal }) => api<ReportWire>(path, { signal }),
    enabled: fid !== null && enabled,
    placeholderData: keepPreviousData,
  });
}
