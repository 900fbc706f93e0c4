import type { AssignmentCreateBody, AssignmentListQuery } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * Vehicle assignments (core routes/assignments.ts): keyed under the fleet's `assignment` collection, so
 * that a live event refreshes the unit page, the items list's driver column and, for a driver, the units.
 */
const key = (fid: number, filter: AssignmentListQuery) =>
  [...queryKeys.collection(fid, 'assignment'), filter] as const;

export function useAssignments(fid: number | null, filter: AssignmentListQuery, enabled = true) {
  return useQuery({
    queryKey: key(fid ?? 0, filter),
    queryFn: async ({ signal }) => (await client.assignments.list(fid ?? 0, filter, { signal })).assignments,
    enabled: fid !== null && enabled,
  });
}

/** Unit id → the current driver's name (the items list's column). */
export function useCurrentDrivers(fid: number | null, enabled: boolean) {
  const current = useAssignments(fid, { current: '1' }, enabled);
  return useMemo(() => new Map((current.data ?? []).map((a) => [a.uid, a.dn])), [current.data]);
}

/** Whom a unit can be assigned to (assignment.manage). */
export function useAssignableDrivers(fid: number | null, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.collection(fid ?? 0, 'assignment'), 'drivers'] as const,
    queryFn: async ({ signal }) => (await client.assignments.drivers(fid ?? 0, { signal })).drivers,
    enabled: fid !== null && enabled,
  });
}

/** Assigning, ending and deleting; each refreshes the assignments and the units. */
export function useAssignmentChanges(fid: number | null) {
  const queryClient = useQueryClient();
  const onSettled = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid ?? 0, 'assignment') }),
      queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid ?? 0, 'avl_unit') }),
    ]);
  return {
    create: useMutation({
      mutationFn: (body: AssignmentCreateBody) => client.assignments.create(fid ?? 0, body),
      onSettled,
    }),
    end: useMutation({
      mutationFn: ({ id, at }: { id: number; at: number }) =>
        client.assignments.update(fid ?? 0, id, { en: at }),
      onSettled,
    }),
    remove: useMutation({
      mutationFn: (id: number) => client.assignments.remove(fid ?? 0, id),
      onSettled,
    }),
  };
}
