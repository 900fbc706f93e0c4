import type { AlertListReply, AlertSelectionBody, LiveEvent, NotificationWire } from '@fleetkeep/core';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { BubbleQueue, makesBubble, withCreated, withDeleted, withRead } from './rules.ts';

/**
 * The bell's data (spec §7 "Notifications and alerts", core contracts/notifications.ts): the user's
 * notifications of the current fleet, loaded once with TanStack Query and then kept current by the live
 * `notification` events (created, read, deleted), patched into the cache: no refetch per event.
 */

/** The bubbles on screen: one queue for the app (the shell shows it). */
export const bubbles = new BubbleQueue();
/** Event ids already known (first load, earlier live events): each makes at most one bubble (spec §4). */
const seen = new Set<string>();
/** A live change of the list (created, read, deleted); applying one twice changes nothing more. */
type Change = (reply: AlertListReply) => AlertListReply;
/** Per fleet, the live changes seen during each read of the list that is in flight. */
const duringReads = new Map<number, Set<Change[]>>();

export function useBubbles() {
  return useSyncExternalStore(
    (l) => bubbles.subscribe(l),
    () => bubbles.list(),
  );
}

/**
 * GET /api/fleets/{fid}/user/alerts; what it returns counts as read for the bubbles (spec §4). Live
 * changes that arrive while the list is read are applied to its reply too: the server may have answered
 * before they were committed, and the reply replaces the kept list (each change is idempotent).
 */
export function alertsQuery(fid: number) {
  return {
    queryKey: queryKeys.alerts(fid),
    queryFn: async () => {
      const changes: Change[] = [];
      const reads = duringReads.get(fid) ?? new Set<Change[]>();
      duringReads.set(fid, reads.add(changes));
      try {
        const answer = await client.notifications.alerts(fid);
        const reply = changes.reduce((r, change) => change(r), answer);
        for (const n of reply.alerts) seen.add(n.id);
        return reply;
      } finally {
        reads.delete(changes);
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  };
}

export function useAlerts(fid: number | null, enabled: boolean) {
  return useQuery({ ...alertsQuery(fid ?? 0), enabled: enabled && fid !== null });
}

/** Applies a live change to the kept list, and to the reply of every read of it still in flight. */
function patch(client: QueryClient, fid: number, fn: Change): void {
  client.setQueryData<AlertListReply>(queryKeys.alerts(fid), (reply) => (reply ? fn(reply) : reply));
  for (const changes of duringReads.get(fid) ?? []) changes.push(fn);
}

/**
 * The live filter of `notification` events (lib/live.ts `addLiveEventFilter`): a new one joins the list
 * and, when it is unread, of the current fleet and not the user's own doing, makes a bubble; reads and
 * deletes (from any of the user's sessions) update the list and take the bubble away.
 */
export function notificationFilter(queryClient: QueryClient, currentFid: () => number | null) {
  return (event: LiveEvent): boolean => {
    if (event.s !== 'notification') return false;
    const fid = event.fid;
    if (fid === null) return true;
    if (event.t === 'c') {
      const n = event.d as NotificationWire;
      patch(queryClient, fid, (reply) => withCreated(reply, n));
      if (fid === currentFid() && makesBubble(n, seen, event.own === 1)) bubbles.push(n);
      seen.add(n.id);
    } else if (event.t === 'u') {
      const n = event.d as NotificationWire;
      if (n.stm !== null) patch(queryClient, fid, (reply) => withRead(reply, [n.id], n.stm as number));
      bubbles.remove(n.id);
    } else if (event.t === 'd') {
      const id = (event.d as { id: string }).id;
      patch(queryClient, fid, (reply) => withDeleted(reply, [id]));
      bubbles.remove(id);
    }
    return true;
  };
}

/** POST /api/fleets/{fid}/user/alerts: marks read (only unread ones change, spec §4). */
export function useReadAlerts(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertSelectionBody) => client.notifications.alertsRead(fid, body),
    onSuccess: (reply) => {
      patch(queryClient, fid, (list) => withRead(list, reply.event_ids, reply.stm));
      for (const id of reply.event_ids) bubbles.remove(id);
    },
  });
}

/** POST /api/fleets/{fid}/user/alerts/delete: one, or all of a kind (spec §4). */
export function useDeleteAlerts(fid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertSelectionBody) => client.notifications.alertsRemove(fid, body),
    onSuccess: (reply) => {
      patch(queryClient, fid, (list) => withDeleted(list, reply.event_ids));
      for (const id of reply.event_ids) bubbles.remove(id);
    },
  });
}
