import type { Collection } from '@fleetkeep/core';

/** The one query-key factory (STYLE "Web code"); live events invalidate by collection. */
export const queryKeys = {
  all: ['fleetkeep'] as const,
  tokens: () => [...queryKeys.all, 'tokens'] as const,
  fleets: () => [...queryKeys.all, 'fleets'] as const,
  fleet: (fid: number) => [...queryKeys.all, 'fleet', fid] as const,
  collection: (fid: number, collection: Collection) => [...queryKeys.fleet(fid), collection] as const,
  /** The fleet's access list (fleet admins): fleet administration and the getting-started checklist. */
  fleetUsers: (fid: number) => [...queryKeys.fleet(fid), 'fleetUsers'] as const,
  fuelPresets: (fid: number) => [...queryKeys.fleet(fid), 'fuelPresets'] as const,
  /** Period statistics (distance, costs): under the units, whose counters move them. */
  statistics: (fid: number) => [...queryKeys.collection(fid, 'avl_unit'), 'statistics'] as const,
  /** The user's notifications (the bell): patched by live events, never refetched per event. */
  alerts: (fid: number) => [...queryKeys.fleet(fid), 'alerts'] as const,
  /** The fleet's notification set-ups of a channel (inapp, mail, bot, webhook) and the delivery log. */
  notifySetups: (fid: number, channel: string) => [...queryKeys.fleet(fid), 'notifySetups', channel] as const,
  deliveries: (fid: number) => [...queryKeys.fleet(fid), 'deliveries'] as const,
};

/** Keys a live event of a collection makes stale. */
export function keysForEvent(collection: Collection, fid: number | null): readonly (readonly unknown[])[] {
  if (collection === 'fleet') return [queryKeys.fleets(), ...(fid === null ? [] : [queryKeys.fleet(fid)])];
  if (fid === null) return [queryKeys.all];
  // An assignment changes which units an "assigned units only" member sees (server auth/reach.ts).
  if (collection === 'assignment')
    return [queryKeys.collection(fid, collection), queryKeys.collection(fid, 'avl_unit')];
  // Statistics hold the costs of closed services and of fuel fillings too.
  if (collection === 'service' || collection === 'fuelfilling')
    return [queryKeys.collection(fid, collection), queryKeys.statistics(fid)];
  return [queryKeys.collection(fid, collection)];
}
