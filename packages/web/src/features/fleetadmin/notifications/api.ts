import type { ChannelTestReply, DeliveryListReply, DeliveryWire } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';
import { type AnySetup, CHANNEL_PATH, type Channel } from './rules.ts';

/**
 * The set-up routes of every channel (core contracts/notifications.ts and notification-channels.ts):
 * GET and POST `/api/fleets/{fid}/{path}`, PUT and DELETE `/{path}/{id}`, POST `/{path}/test`, and the
 * delivery log GET `/api/fleets/{fid}/deliveries` with POST `/deliveries/{id}/retry`.
 */

const base = (fid: number, channel: Channel) => `/api/fleets/${fid}/${CHANNEL_PATH[channel].path}`;

export function useSetups(fid: number, channel: Channel) {
  return useQuery({
    queryKey: queryKeys.notifySetups(fid, channel),
    queryFn: async () => {
      const reply = await api<Record<string, AnySetup[]>>(base(fid, channel));
      return reply[CHANNEL_PATH[channel].list] ?? [];
    },
    retry: false,
  });
}

export function useSaveSetup(fid: number, channel: Channel) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Record<string, unknown> }) =>
      id === null
        ? api<AnySetup>(base(fid, channel), { method: 'POST', body })
        : api<AnySetup>(`${base(fid, channel)}/${id}`, { method: 'PUT', body }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.notifySetups(fid, channel) }),
  });
}

export function useDeleteSetup(fid: number, channel: Channel) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`${base(fid, channel)}/${id}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.notifySetups(fid, channel) }),
  });
}

/** "Send test": in-app answers `{sent}` (users reached), the other channels the delivery `{ok, reason}`. */
export function useTestSetup(fid: number, channel: Channel) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api<Partial<ChannelTestReply> & { sent?: number }>(`${base(fid, channel)}/test`, {
        method: 'POST',
        body,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.deliveries(fid) }),
  });
}

export function useDeliveries(fid: number) {
  return useQuery({
    queryKey: queryKeys.deliveries(fid),
    queryFn: () => api<DeliveryListReply>(`/api/fleets/${fid}/deliveries`),
    retry: false,
  });
}

/** Retries a failed delivery by hand (POST `/api/fleets/{fid}/deliveries/{id}/retry`). */
export function useRetryDelivery(fid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api<DeliveryWire>(`/api/fleets/${fid}/deliveries/${id}/retry`, { method: 'POST', body: {} }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.deliveries(fid) }),
  });
}
