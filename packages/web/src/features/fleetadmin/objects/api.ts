import type {
  FleetEntitiesBody,
  FleetEntitiesReply,
  ObjectDeleteReply,
  PersonCreateBody,
  PersonUpdateBody,
  PersonWire,
  UnitCreateBody,
  UnitUpdateBody,
  UnitWire,
} from '@fleetkeep/core';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { usePeople, useUnits } from '../../../lib/fleetData.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';
import { KIND_COLLECTION, type ObjectKind, type ObjectRow } from './rules.ts';

/**
 * Calls of the service objects tab (spec §7 "Fleet"; core contracts/fleets.ts). The fleet's own lists are
 * the app's shared collection queries (lib/fleetData.ts), so what this tab changes shows at once in the
 * items list and on the map; the "available" list is keyed under the same collection, so one
 * invalidation (or a live event of the collection) refreshes both.
 */

type AnyObject = UnitWire | PersonWire;

export function rowOf(kind: ObjectKind, o: AnyObject): ObjectRow {
  if (kind === 'units') {
    const u = o as UnitWire;
    return { id: u.id, name: u.nm, detail: u.uid, fid: u.fid };
  }
  const p = o as PersonWire;
  return { id: p.id, name: p.n, detail: p.c, fid: p.fid };
}

const bindableKey = (fid: number, kind: ObjectKind) =>
  [...queryKeys.collection(fid, KIND_COLLECTION[kind]), 'bindable'] as const;

/** The fleet's objects of a kind as saved (`GET /fleets/{id}/{kind}`), the app's shared cache entry. */
export function useFleetObjects(fid: number, kind: ObjectKind) {
  const units = useUnits<UnitWire>(kind === 'units' ? fid : null);
  const people = usePeople<PersonWire>(kind === 'units' ? null : fid, kind === 'units' ? 'drivers' : kind);
  return kind === 'units' ? units : people;
}

/** `GET /fleets/{id}/user/{kind}`: what the admin may bind (of the fleet's account, in this fleet or none). */
export function useBindable(fid: number, kind: ObjectKind) {
  return useQuery({
    queryKey: bindableKey(fid, kind),
    queryFn: async ({ signal }) =>
      (await api<Record<string, AnyObject[] | undefined>>(`/api/fleets/${fid}/user/${kind}`, { signal }))[
        kind
      ] ?? [],
  });
}

/**
 * After a change of a kind: its collection (and the available list under it); leaving or deletion drops
 * interval assignments and services (PRODUCT.md "Service objects and counters"), so those lists too.
 */
function refresh(client: QueryClient, fid: number, kinds: readonly ObjectKind[], assignments: boolean) {
  const keys = [
    ...kinds.map((k) => queryKeys.collection(fid, KIND_COLLECTION[k])),
    ...(assignments
      ? [
          queryKeys.collection(fid, 'interval'),
          queryKeys.collection(fid, 'service'),
          queryKeys.statistics(fid),
        ]
      : []),
  ];
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

/** `PUT /fleets/{id}/entities` with the full id list of each kind given. */
export function useSaveEntities(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FleetEntitiesBody) =>
      api<FleetEntitiesReply>(`/api/fleets/${fid}/entities`, { method: 'PUT', body }),
    onSettled: (_data, _err, body) => refresh(client, fid, Object.keys(body) as ObjectKind[], true),
  });
}

/** `POST /fleets/{id}/units`; the unit joins the fleet at once. */
export function useCreateUnit(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UnitCreateBody) => api<UnitWire>(`/api/fleets/${fid}/units`, { method: 'POST', body }),
    onSuccess: () => refresh(client, fid, ['units'], false),
  });
}

/** `POST /fleets/{id}/drivers|trailers`. */
export function useCreatePerson(fid: number, kind: 'drivers' | 'trailers') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PersonCreateBody) =>
      api<PersonWire>(`/api/fleets/${fid}/${kind}`, { method: 'POST', body }),
    onSuccess: () => refresh(client, fid, [kind], false),
  });
}

/**
 * `PUT /fleets/{fid}/units/{id}` (name, type), after `PUT .../units/{id}/device` when the device
 * identifier changed (a replaced tracker; its 409 names `body.uid` like the create does).
 */
export function useUpdateUnit(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body, uid }: { id: number; body: UnitUpdateBody; uid?: string }) => {
      if (uid !== undefined) {
        await api<UnitWire>(`/api/fleets/${fid}/units/${id}/device`, { method: 'PUT', body: { uid } });
      }
      return api<UnitWire>(`/api/fleets/${fid}/units/${id}`, { method: 'PUT', body });
    },
    onSuccess: () => refresh(client, fid, ['units'], false),
  });
}

/** `PUT /drivers/{id}`, `PUT /trailers/{id}`. */
export function useUpdatePerson(fid: number, kind: 'drivers' | 'trailers') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: PersonUpdateBody }) =>
      api<PersonWire>(`/api/${kind}/${id}`, { method: 'PUT', body }),
    onSuccess: () => refresh(client, fid, [kind], false),
  });
}

/** `DELETE` of a unit, driver or trailer; `withArchive` removes its archived services too. */
export function useDeleteObject(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id, withArchive }: { kind: ObjectKind; id: number; withArchive: boolean }) => {
      const archive = withArchive ? 'delete' : 'keep';
      const path = kind === 'units' ? `/api/fleets/${fid}/units/${id}` : `/api/${kind}/${id}`;
      return api<ObjectDeleteReply>(`${path}?archive=${archive}`, { method: 'DELETE' });
    },
    onSettled: (_data, _err, vars) => refresh(client, fid, [vars.kind], true),
  });
}
