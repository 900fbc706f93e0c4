import { mapKeyRecords, pickTileKeys, type SessionAuthReply } from '@fleetkeep/core';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useSession } from '../../lib/session.ts';
import { availableLayers, type LayerId, type LayerSources } from './layers.ts';

/** The platform map config of the auth reply (spec §3 "Application configuration"). */
type GisConfig = Partial<Pick<SessionAuthReply, 'gis' | 'gis_sid'>>;

/** The maps service failed during this page's life (spec §8): its layers are invalid until a reload. */
let googleFailed = false;
const listeners = new Set<() => void>();

export function markMapsServiceFailed(): void {
  googleFailed = true;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The key records of `user/get_keys`, fetched once per session (spec §7). */
export function useMapKeys() {
  return useQuery({
    queryKey: [...queryKeys.all, 'mapKeys'],
    queryFn: async ({ signal }) => mapKeyRecords(await client.platform.keys({}, { signal })),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export interface MapLayers extends LayerSources {
  gisSid: string | null;
  available: LayerId[];
  /** Still waiting for the key records. */
  pending: boolean;
}

/** The base layers this user can choose now. */
export function useMapLayers(): MapLayers {
  const session = useSession();
  const keys = useMapKeys();
  const failed = useSyncExternalStore(subscribe, () => googleFailed);
  const gis: GisConfig = session.status === 'authenticated' ? session.auth : {};
  const sources: LayerSources = {
    gisUrl: gis.gis?.url ?? null,
    google: pickTileKeys(keys.data ?? []).google,
    googleFailed: failed,
  };
  return {
    ...sources,
    gisSid: gis.gis_sid ?? null,
    available: availableLayers(sources),
    pending: keys.isPending,
  };
}
