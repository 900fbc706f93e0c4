import type {
  FleetListReply,
  FleetUpdateBody,
  FleetUserEntry,
  FleetUsersReply,
  FleetWire,
} from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** Calls of fleet administration (spec §7 "Fleet"); types from core contracts/fleets.ts. */

const usersKey = (fid: number) => [...queryKeys.fleet(fid), 'fleetUsers'] as const;

/** GET /api/fleets, narrowed to one fleet (undefined when the user does not see it). */
export function useFleet(fid: number) {
  return useQuery({
    queryKey: queryKeys.fleets(),
    queryFn: () => api<FleetListReply>('/api/fleets'),
    select: (reply): FleetWire | undefined => reply.fleets.find((f) => f.id === fid),
  });
}

/** PUT /api/fleets/{id}: the fleet's settings. */
export function useUpdateFleet(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FleetUpdateBody) => api<unknown>(`/api/fleets/${fid}`, { method: 'PUT', body }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.fleets() }),
  });
}

/** GET /api/fleets/{id}/users: the access list and the candidates (fleet admins only). */
export function useFleetUsers(fid: number, enabled: boolean) {
  return useQuery({
    queryKey: usersKey(fid),
    queryFn: () => api<FleetUsersReply>(`/api/fleets/${fid}/users`),
    enabled,
  });
}

/** PUT /api/fleets/{id}/users: the whole access list. */
export function useSaveFleetUsers(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (users: FleetUserEntry[]) =>
      api<unknown>(`/api/fleets/${fid}/users`, { method: 'PUT', body: { users } }),
    onSettled: () => client.invalidateQueries({ queryKey: usersKey(fid) }),
  });
}
