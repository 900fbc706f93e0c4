import { routes } from '@fleetkeep/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { client } from './client.ts';
import { queryKeys } from './queryKeys.ts';
import { useCan } from './useCan.ts';

/**
 * Parts in stock as the service and work-order line editors offer them (docs/product.md "Parts and
 * stock"): one choice per part and location, for users who may read parts.
 */

export interface StockChoice {
  value: string;
  label: string;
  pid: number;
  slid: number;
  name: string;
  cost: number;
}

export const stockChoiceValue = (pid: number, slid: number) => `${pid}:${slid}`;

export function useStockChoices(fid: number | null): StockChoice[] {
  const can = useCan(routes.parts.list);
  const parts = useQuery({
    queryKey: [...queryKeys.fleet(fid ?? 0), 'parts', 'list', {}],
    enabled: fid !== null && can,
    queryFn: async ({ signal }) => (await client.parts.list(fid ?? 0, {}, { signal })).parts,
  });
  return useMemo(
    () =>
      (parts.data ?? []).flatMap((p) =>
        p.stock.map((s) => ({
          value: stockChoiceValue(p.id, s.location_id),
          label: `${p.number} ${p.name} · ${s.location} (${s.qty})`,
          pid: p.id,
          slid: s.location_id,
          name: p.name,
          cost: p.cost,
        })),
      ),
    [parts.data],
  );
}
