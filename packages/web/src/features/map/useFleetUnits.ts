import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import type { MapUnit } from './markers.ts';

/**
 * The current fleet's units: the same query (key and shape) the unit screens use, so the map shares
 * their cache; unit messages are patched into it (livePatch.ts), other unit events invalidate it.
 */
export function useFleetUnits(fid: number | null) {
  return useQuery({
    queryKey: queryKeys.collection(fid ?? 0, 'avl_unit'),
    queryFn: async ({ signal }) => {
      const reply = await api<{ units?: MapUnit[] }>(`/api/fleets/${fid}/units`, { signal });
      return reply.units ?? [];
    },
    enabled: fid !== null,
  });
}
