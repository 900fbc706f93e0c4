import type {
  FleetEntitiesBody,
  PersonCreateBody,
  PersonUpdateBody,
  PersonWire,
  UnitCreateBody,
  UnitUpdateBody,
  UnitWire,
} from '@fleetkeep/core';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../../lib/client.ts';
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
    queryFn: async ({ signal }): Promise<AnyObject[]> => {
      if (kind === 'units') return (await client.fleets.bindableUnits(fid, { signal })).units;
      if (kind === 'drivers') return (await client.fleets.bindableDrivers(fid, { signal })).drivers;
      return (await client.fleets.bindableTrailers(fid, { signal })).trailers;
    },
  });
}

/**
 * After a change of a kind: its collection (and the available list under it); leaving or deletion drops
 * interval assignments and services (PRODUCT.md "Service objects and counters"), so those lists too.
 */
function refresh(queryClient: QueryClient, fid: number, kinds: readonly ObjectKind[], assignments: boolean) {
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
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** `PUT /fleets/{id}/entities` with the full id list of each kind given. */
export function useSaveEntities(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FleetEntitiesBody) => client.fleets.setEntities(fid, body),
    onSettled: (_data, _err, body) => refresh(queryClient, fid, Object.keys(body) as ObjectKind[], true),
  });
}

/** `POST /fleets/{id}/units`; the unit joins the fleet at once. */
export function useCreateUnit(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UnitCreateBody) => client.fleets.createUnit(fid, body),
    onSuccess: () => refresh(queryClient, fid, ['units'], false),
  });
}

/** `POST /fleets/{id}/drivers|trailers`. */
export function useCreatePerson(fid: number, kind: 'drivers' | 'trailers') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PersonCreateBody) =>
      kind === 'drivers' ? client.fleets.createDriver(fid, body) : client.fleets.createTrailer(fid, body),
    onSuccess: () => refresh(queryClient, fid, [kind], false),
  });
}

/**
 * `PUT /fleets/{fid}/units/{id}` (name, type), after `PUT .../units/{id}/device` when the device
 * identifier changed (a replaced tracker; its 409 names `body.uid` like the create does).
 */
export function useUpdateUnit(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body, uid }: { id: number; body: UnitUpdateBody; uid?: string }) => {
      if (uid !== undefined) {
        await client.fleets.changeUnitDevice(fid, id, { uid });
      }
      return client.fleets.updateUnit(fid, id, body);
    },
    onSuccess: () => refresh(queryClient, fid, ['units'], false),
  });
}

/** `PUT /drivers/{id}`, `PUT /trailers/{id}`. */
export function useUpdatePerson(fid: number, kind: 'drivers' | 'trailers') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: PersonUpdateBody }) =>
      kind === 'drivers' ? client.fleets.updateDriver(id, body) : client.fleets.updateTrailer(id, body),
    onSuccess: () => refresh(queryClient, fid, [kind], false),
  });
}

/** `DELETE` of a unit, driver or trailer; `withArchive` removes its archived services too. */
export function useDeleteObject(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id, withArchive }: { kind: ObjectKind; id: number; withArchive: boolean }) => {
      const query = { archive: withArchive ? ('delete' as const) : ('keep' as const) };
      if (kind === 'units') return client.fleets.removeUnit(fid, id, query);
      if (kind === 'drivers') return client.fleets.removeDriver(id, query);
      return client.fleets.removeTrailer(id, query);
    },
    onSettled: (_data, _err, vars) => refresh(queryClient, fid, [vars.kind], true),
  });
}
