import type { PurchaseOrderWire } from '@fleetkeep/core';
import { formatFleetDateTime, formatMoney, formatNumber } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useSession } from '../../lib/session.ts';

/** The parts screens' reads and writes (core routes/parts.ts); every write refreshes them all. */

const key = (fid: number) => [...queryKeys.fleet(fid), 'parts'] as const;

export function useFid(): number | null {
  const session = useSession();
  return session.status === 'authenticated' ? session.auth.fid : null;
}

export function useParts(fid: number | null) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'list', {}],
    enabled: fid !== null,
    queryFn: async ({ signal }) => (await client.parts.list(fid ?? 0, {}, { signal })).parts,
  });
}

export function usePart(fid: number | null, id: number) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'one', id],
    enabled: fid !== null && id > 0,
    queryFn: ({ signal }) => client.parts.get(fid ?? 0, id, { signal }),
  });
}

export function useMoves(fid: number | null, id: number) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'moves', id],
    enabled: fid !== null && id > 0,
    queryFn: async ({ signal }) => (await client.parts.moves(fid ?? 0, id, { signal })).moves,
  });
}

export function useLocations(fid: number | null) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'locations'],
    enabled: fid !== null,
    queryFn: async ({ signal }) => (await client.stockLocations.list(fid ?? 0, { signal })).locations,
  });
}

export function useOrders(fid: number | null) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'orders'],
    enabled: fid !== null,
    queryFn: async ({ signal }) =>
      (await client.purchaseOrders.list(fid ?? 0, {}, { signal })).purchase_orders,
  });
}

export function useOrder(fid: number | null, id: number) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'order', id],
    enabled: fid !== null && id > 0,
    queryFn: ({ signal }): Promise<PurchaseOrderWire> => client.purchaseOrders.get(fid ?? 0, id, { signal }),
  });
}

/** A write that refreshes every parts query of the fleet once it succeeded. */
export function usePartsWrite<A, R>(fid: number | null, write: (fid: number, args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: A) => write(fid ?? 0, args),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: key(fid ?? 0) }),
  });
}

/** The fleet's currency and clock and the user's number format. */
export function usePartsFormat() {
  const { i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === auth.fid);
  const tz = fleet?.tz ?? 0;
  const currency = fleet?.cur ?? '';
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const timeFormat = auth?.model.s.timeFormat || 'HH:mm';
  const locale = i18n.language;
  return useMemo(
    () => ({
      dateTime: (unix: number) => formatFleetDateTime(unix, tz, dateFormat, timeFormat, locale),
      money: (value: number) => formatMoney(value, currency, { locale }),
      qty: (value: number) => formatNumber(value, { locale }),
    }),
    [tz, currency, dateFormat, timeFormat, locale],
  );
}
