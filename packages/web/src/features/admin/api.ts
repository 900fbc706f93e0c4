import type { FleetCreateBody, TeltonikaIoMapping } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client as apiClient } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { refreshFleets } from '../../lib/session.ts';

/** Server data of /admin (spec §7 "Fleet", "Admin"); types from core contracts. */

/** The account list's key: the same as the activation screen's, so both share one cached reply. */
const accountsKey = () => [...queryKeys.all, 'admin', 'accounts'] as const;

/** GET /api/fleets: every fleet the user sees, with the user's acl on it. */
export function useFleets() {
  return useQuery({
    queryKey: queryKeys.fleets(),
    queryFn: ({ signal }) => apiClient.fleets.list({ signal }),
  });
}

/** GET /api/admin/accounts (need account.admin): account names for the list and the create form. */
export function useAccounts(enabled: boolean) {
  return useQuery({
    queryKey: accountsKey(),
    // The cached value is the whole reply, as the activation screen caches it under the same key.
    queryFn: ({ signal }) => apiClient.admin.accounts({ signal }),
    select: (reply) => reply.accounts,
    enabled,
  });
}

/**
 * POST /api/fleets. The session's fleet list (auth reply) learns of the new fleet before the mutation
 * resolves, so that the header's fleet switcher and the /fleet/{id} guard know it at once.
 */
export function useCreateFleet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: FleetCreateBody) => {
      const fleet = await apiClient.fleets.create(body);
      await refreshFleets();
      return fleet;
    },
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.fleets() }),
        client.invalidateQueries({ queryKey: accountsKey() }),
      ]),
  });
}

/** The unit types' key: their Teltonika IO mapping (super users). */
const unitTypesKey = () => [...queryKeys.all, 'admin', 'unitTypes'] as const;

/** GET /api/admin/unit_types (need platform.su). */
export function useUnitTypes(enabled: boolean) {
  return useQuery({
    queryKey: unitTypesKey(),
    queryFn: ({ signal }) => apiClient.platform.unitTypes({ signal }),
    select: (reply) => reply.unit_types,
    enabled,
  });
}

/** PUT /api/admin/unit_types/{id}/teltonika. */
export function useSetUnitTypeIo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TeltonikaIoMapping }) =>
      apiClient.platform.unitTypeTeltonika(id, body),
    onSettled: () => client.invalidateQueries({ queryKey: unitTypesKey() }),
  });
}
