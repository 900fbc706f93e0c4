import type { ChannelTestReply } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../../lib/client.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';
import type { AnySetup, Channel } from './rules.ts';

/**
 * The set-up calls of every channel (core routes/notifications.ts for in-app, routes/
 * notification-channels.ts for e-mail, bot and webhook: list, create, test, change, delete of the same
 * shape) and the delivery log with its retry.
 */

type TestReply = Partial<ChannelTestReply> & { sent?: number };

/**
 * One channel's calls. A body is the one the channel's rules built (rules.ts `bodyOf`), so it is taken
 * as `never` here and checked by the channel's own call.
 */
interface ChannelCalls {
  list: (fid: number) => Promise<AnySetup[]>;
  create: (fid: number, body: never) => Promise<AnySetup>;
  update: (fid: number, id: number, body: never) => Promise<AnySetup>;
  remove: (fid: number, id: number) => Promise<unknown>;
  test: (fid: number, body: never) => Promise<TestReply>;
}

const { notifications: inapp, notificationChannels: channels } = client;

const CALLS: Record<Channel, ChannelCalls> = {
  inapp: {
    list: async (fid) => (await inapp.setups(fid)).notifications,
    create: inapp.setupCreate,
    update: inapp.setupUpdate,
    remove: inapp.setupRemove,
    test: inapp.setupTest,
  },
  mail: {
    list: async (fid) => (await channels.mails(fid)).mails,
    create: channels.mailCreate,
    update: channels.mailUpdate,
    remove: channels.mailRemove,
    test: channels.mailTest,
  },
  bot: {
    list: async (fid) => (await channels.bots(fid)).bots,
    create: channels.botCreate,
    update: channels.botUpdate,
    remove: channels.botRemove,
    test: channels.botTest,
  },
  webhook: {
    list: async (fid) => (await channels.webhooks(fid)).webhooks,
    create: channels.webhookCreate,
    update: channels.webhookUpdate,
    remove: channels.webhookRemove,
    test: channels.webhookTest,
  },
};

export function useSetups(fid: number, channel: Channel) {
  return useQuery({
    queryKey: queryKeys.notifySetups(fid, channel),
    queryFn: () => CALLS[channel].list(fid),
    retry: false,
  });
}

export function useSaveSetup(fid: number, channel: Channel) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Record<string, unknown> }) =>
      id === null ? CALLS[channel].create(fid, body as never) : CALLS[channel].update(fid, id, body as never),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifySetups(fid, channel) }),
  });
}

export function useDeleteSetup(fid: number, channel: Channel) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => CALLS[channel].remove(fid, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifySetups(fid, channel) }),
  });
}

/** "Send test": in-app answers `{sent}` (users reached), the other channels the delivery `{ok, reason}`. */
export function useTestSetup(fid: number, channel: Channel) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => CALLS[channel].test(fid, body as never),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.deliveries(fid) }),
  });
}

export function useDeliveries(fid: number) {
  return useQuery({
    queryKey: queryKeys.deliveries(fid),
    queryFn: () => channels.deliveries(fid),
    retry: false,
  });
}

/** Retries a failed delivery by hand (core routes/notification-channels.ts `deliveryRetry`). */
export function useRetryDelivery(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => channels.deliveryRetry(fid, id, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.deliveries(fid) }),
  });
}
