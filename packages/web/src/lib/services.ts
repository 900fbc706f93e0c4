import type { ObjectType } from '@fleetkeep/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from './client.ts';
import { queryKeys } from './queryKeys.ts';

/**
 * The services of spec §7 "Services" as the screens read them: the query hooks of the open services
 * (of the fleet or of one object), the archive and one service. One key family under
 * `queryKeys.collection(fid, 'service')`, so a live service event refreshes every screen that shows
 * services (the services list, the close screen, the editor, the object pages) and screens asking the
 * same thing share one cache entry. The records are core's `ServiceWire` (contracts/services.ts: km and
 * engine hours, Unix-second dates at the start of the fleet-zone day, money with at most 3 decimals).
 * The mutations live with the services feature (features/services/api.ts).
 */

/** Sub-keys of the service collection. */
export const serviceKeys = {
  all: (fid: number) => queryKeys.collection(fid, 'service'),
  open: (fid: number, object?: { t: ObjectType; id: number }) =>
    [...queryKeys.collection(fid, 'service'), 'open', object?.t ?? null, object?.id ?? null] as const,
  archived: (fid: number, from: string, to: string) =>
    [...queryKeys.collection(fid, 'service'), 'archived', from, to] as const,
  one: (fid: number, id: number) => [...queryKeys.collection(fid, 'service'), 'one', id] as const,
};

/** GET .../services: open services (Due incl. overdue, In progress), optionally of one object. */
export function useOpenServices(fid: number | null, object?: { t: ObjectType; id: number }) {
  return useQuery({
    queryKey: serviceKeys.open(fid ?? 0, object),
    queryFn: async ({ signal }) => {
      const query = object ? { object_type: object.t, object_id: object.id } : {};
      return (await client.services.list(fid ?? 0, query, { signal })).services;
    },
    enabled: fid !== null,
  });
}

/** GET .../services/archived?from&to: closed and rejected services by end date (YYYY-MM-DD, ≤ 366 days). */
export function useArchivedServices(fid: number | null, from: string, to: string) {
  return useQuery({
    queryKey: serviceKeys.archived(fid ?? 0, from, to),
    queryFn: async ({ signal }) =>
      (await client.services.archived(fid ?? 0, { from, to }, { signal })).services,
    enabled: fid !== null && from !== '' && to !== '',
  });
}

/** GET .../services/{id}: one service, any status. */
export function useService(fid: number | null, id: number | null) {
  return useQuery({
    queryKey: serviceKeys.one(fid ?? 0, id ?? 0),
    queryFn: async ({ signal }) => client.services.get(fid ?? 0, id ?? 0, { signal }),
    enabled: fid !== null && id !== null,
  });
}

/** Refreshes every service query of the fleet after a change. */
export function useInvalidateServices(fid: number | null) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: serviceKeys.all(fid ?? 0) });
}
