import type { CustomFieldBody, CustomFieldUpdateBody } from '@fleetkeep/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '../../../lib/client.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

/**
 * Writes of custom-field definitions (spec §7 "Custom fields"). The list itself is the one the rest of
 * the app reads (lib/fleetData.ts `useCustomFields`, key `collection(fid, 'customfield')`), so the
 * service editor and the object profiles see a change at once. A delete with values also changes every
 * record that held one (units, drivers, trailers, services, fuel fillings): the fleet's queries are
 * invalidated as a whole then, a rare write (live events do the same for other users).
 */

function useInvalidate(fid: number) {
  const queryClient = useQueryClient();
  return (withHolders = false) =>
    queryClient.invalidateQueries({
      queryKey: withHolders ? queryKeys.fleet(fid) : queryKeys.collection(fid, 'customfield'),
    });
}

/** POST /api/fleets/{fid}/custom-fields. */
export function useCreateField(fid: number) {
  const invalidate = useInvalidate(fid);
  return useMutation({
    mutationFn: (body: CustomFieldBody) => client.customfields.create(fid, body),
    onSettled: () => invalidate(),
  });
}

/** PUT /api/custom-fields/{id}. */
export function useUpdateField(fid: number) {
  const invalidate = useInvalidate(fid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CustomFieldUpdateBody }) =>
      client.customfields.update(id, body),
    onSettled: () => invalidate(),
  });
}

/** DELETE /api/custom-fields/{id}?safe=1|0 (spec §7: safe defaults to 1 and refuses while values exist). */
export function useDeleteField(fid: number) {
  const invalidate = useInvalidate(fid);
  return useMutation({
    mutationFn: ({ id, safe }: { id: number; safe: boolean }) =>
      client.customfields.remove(id, { safe: safe ? '1' : '0' }),
    onSettled: (_reply, _err, { safe }) => invalidate(!safe),
  });
}
