import type {
  FleetTransferBody,
  FleetWire,
  LubeLoggerCommitBody,
  LubeLoggerParseBody,
  RouteBody,
  routes,
} from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** Calls of the migration screen (core routes/fleet-transfer.ts); every one needs admin on the fleet. */

export const exportPath = (fid: number) => client.fleetTransfer.exportDocument.url(fid);
export const csvPath = (fid: number, collection: string) =>
  client.fleetTransfer.exportCsv.url(fid, `${collection}.csv`);

/** The fleet of the URL (GET /api/fleets), undefined when the user does not see it. */
export function useMigrationFleet(fid: number) {
  return useQuery({
    queryKey: queryKeys.fleets(),
    queryFn: ({ signal }) => client.fleets.list({ signal }),
    select: (reply): FleetWire | undefined => reply.fleets.find((f) => f.id === fid),
  });
}

/** The fleet's units, the targets of the LubeLogger vehicle mapping. */
export function useFleetUnits(fid: number) {
  return useQuery({
    queryKey: [...queryKeys.fleet(fid), 'migrationUnits'] as const,
    queryFn: ({ signal }) => client.fleets.units(fid, { signal }),
  });
}

/** After an import everything of the fleet may have changed. */
function useRefreshFleet(fid: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.fleet(fid) });
}

/** The import body as the screen sends it: the file's document unread, the device identifiers chosen. */
export type ImportDocumentBody = Omit<FleetTransferBody, 'document'> & { document: unknown };

/** POST /api/fleets/{fid}/transfer. */
export function useImportDocument(fid: number) {
  const refresh = useRefreshFleet(fid);
  return useMutation({
    // The document is the file as read; the server's contract checks it (error 4 with its issues).
    mutationFn: (body: ImportDocumentBody) =>
      client.fleetTransfer.importDocument(fid, body as RouteBody<typeof routes.fleetTransfer.importDocument>),
    onSettled: refresh,
  });
}

/** POST .../transfer/lubelogger/parse: the preview. */
export function useParseLubeLogger(fid: number) {
  return useMutation({
    mutationFn: (body: LubeLoggerParseBody) => client.fleetTransfer.lubeLoggerParse(fid, body),
  });
}

/** POST .../transfer/lubelogger: the import. */
export function useCommitLubeLogger(fid: number) {
  const refresh = useRefreshFleet(fid);
  return useMutation({
    mutationFn: (body: LubeLoggerCommitBody) => client.fleetTransfer.lubeLoggerCommit(fid, body),
    onSettled: refresh,
  });
}
