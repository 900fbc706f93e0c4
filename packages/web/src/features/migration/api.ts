import type {
  FleetListReply,
  FleetTransferBody,
  FleetTransferReply,
  FleetWire,
  LubeLoggerCommitBody,
  LubeLoggerCommitReply,
  LubeLoggerParseBody,
  LubeLoggerParseReply,
  UnitListReply,
} from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** Calls of the migration screen (core contracts/fleet-transfer.ts); every one needs admin on the fleet. */

export const exportPath = (fid: number) => `/api/fleets/${fid}/export`;
export const csvPath = (fid: number, collection: string) => `/api/fleets/${fid}/export/${collection}.csv`;

/** The fleet of the URL (GET /api/fleets), undefined when the user does not see it. */
export function useMigrationFleet(fid: number) {
  return useQuery({
    queryKey: queryKeys.fleets(),
    queryFn: () => api<FleetListReply>('/api/fleets'),
    select: (reply): FleetWire | undefined => reply.fleets.find((f) => f.id === fid),
  });
}

/** The fleet's units, the targets of the LubeLogger vehicle mapping. */
export function useFleetUnits(fid: number) {
  return useQuery({
    queryKey: [...queryKeys.fleet(fid), 'migrationUnits'] as const,
    queryFn: () => api<UnitListReply>(`/api/fleets/${fid}/units`),
  });
}

/** After an import everything of the fleet may have changed. */
function useRefreshFleet(fid: number) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.fleet(fid) });
}

/** The import body as the screen sends it: the file's document unread, the device identifiers chosen. */
export type ImportDocumentBody = Omit<FleetTransferBody, 'document'> & { document: unknown };

/** POST /api/fleets/{fid}/transfer. */
export function useImportDocument(fid: number) {
  const refresh = useRefreshFleet(fid);
  return useMutation({
    mutationFn: (body: ImportDocumentBody) =>
      api<FleetTransferReply>(`/api/fleets/${fid}/transfer`, { method: 'POST', body }),
    onSettled: refresh,
  });
}

/** POST .../transfer/lubelogger/parse: the preview. */
export function useParseLubeLogger(fid: number) {
  return useMutation({
    mutationFn: (body: LubeLoggerParseBody) =>
      api<LubeLoggerParseReply>(`/api/fleets/${fid}/transfer/lubelogger/parse`, { method: 'POST', body }),
  });
}

/** POST .../transfer/lubelogger: the import. */
export function useCommitLubeLogger(fid: number) {
  const refresh = useRefreshFleet(fid);
  return useMutation({
    mutationFn: (body: LubeLoggerCommitBody) =>
      api<LubeLoggerCommitReply>(`/api/fleets/${fid}/transfer/lubelogger`, { method: 'POST', body }),
    onSettled: refresh,
  });
}
