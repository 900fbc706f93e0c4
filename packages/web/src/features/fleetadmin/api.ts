import type { FleetUpdateBody, FleetUserEntry, FleetWire } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** Calls of fleet administration (spec §7 "Fleet"); types from core contracts/fleets.ts. */

const usersKey = queryKeys.fleetUsers;

/** GET /api/fleets, narrowed to one fleet (undefined when the user does not see it). */
export function useFleet(fid: number) {
  return useQuery({
    queryKey: queryKeys.fleets(),
    queryFn: ({ signal }) => client.fleets.list({ signal }),
    select: (reply): FleetWire | undefined => reply.fleets.find((f) => f.id === fid),
  });
}

/** PUT /api/fleets/{id}: the fleet's settings. */
export function useUpdateFleet(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FleetUpdateBody) => client.fleets.update(fid, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.fleets() }),
  });
}

/** GET /api/fleets/{id}/users: the access list and the candidates (fleet admins only). */
export function useFleetUsers(fid: number, enabled: boolean) {
  return useQuery({
    queryKey: usersKey(fid),
    queryFn: ({ signal }) => client.fleets.users(fid, { signal }),
    enabled,
  });
}

/** PUT /api/fleets/{id}/users: the whole access list. */
export function useSaveFleetUsers(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (users: FleetUserEntry[]) => client.fleets.setUsers(fid, { users }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey(fid) }),
  });
}

/** The fleet's critical fault codes (core routes/fault-codes.ts), refreshed by `faultcode` live events. */
const criticalKey = (fid: number) => [...queryKeys.collection(fid, 'faultcode'), 'critical'] as const;

export function useCriticalFaultCodes(fid: number) {
  return useQuery({
    queryKey: criticalKey(fid),
    queryFn: async ({ signal }) => (await client.faultCodes.critical(fid, { signal })).codes,
  });
}

/** PUT /api/fleets/{fid}/critical-fault-codes (fleet admin). */
export function useSetCriticalFaultCodes(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (codes: string[]) => client.faultCodes.setCritical(fid, { codes }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid, 'faultcode') }),
  });
}
