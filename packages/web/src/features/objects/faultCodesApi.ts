import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * A unit's fault codes (core routes/fault-codes.ts): keyed under the fleet's `faultcode` collection, so
 * that the live event of a new, seen-again or cleared code refreshes the list of the open unit page.
 */
const faultCodesKey = (fid: number, unitId: number) =>
  [...queryKeys.collection(fid, 'faultcode'), unitId] as const;

export function useFaultCodes(fid: number | null, unitId: number) {
  return useQuery({
    queryKey: faultCodesKey(fid ?? 0, unitId),
    queryFn: async ({ signal }) => (await client.faultCodes.list(fid ?? 0, unitId, { signal })).codes,
    enabled: fid !== null,
  });
}

/** Clearing a code; refreshes the list. */
export function useClearFaultCode(fid: number | null, unitId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (codeId: number) => client.faultCodes.clear(fid ?? 0, unitId, codeId, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: faultCodesKey(fid ?? 0, unitId) }),
  });
}
