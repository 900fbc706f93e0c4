import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import type { CustomField } from './rules.ts';

/**
 * The fleet's custom field definitions (spec §7 `GET /fleets/{fid}/custom-fields`, reply field
 * `custom_fields`), keyed under the `customfield` collection so live events refresh them.
 */
export function useCustomFields(fid: number | null) {
  return useQuery({
    queryKey: queryKeys.collection(fid ?? 0, 'customfield'),
    queryFn: async ({ signal }) =>
      (await api<{ custom_fields?: CustomField[] }>(`/api/fleets/${fid}/custom-fields`, { signal }))
        .custom_fields ?? [],
    enabled: fid !== null,
  });
}
