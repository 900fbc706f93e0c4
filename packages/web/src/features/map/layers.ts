import type { MapKeyRecord } from '@fleetkeep/core';

/**
 * Base layers of spec §2 "Map": the community map (OpenStreetMap), the platform tile layer (when the auth
 * reply has a gis url) and the maps service's road and satellite layers (when get_keys has a google key
 * with the tiles bit). The chosen one is the user setting `layer`.
 */
export type LayerId = 'osm' | 'gis' | 'roadmap' | 'satellite';

export const DEFAULT_LAYER: LayerId = 'osm';

/** Translation keys of the layer names. */
export const LAYER_LABEL: Record<LayerId, string> = {
  osm: 'settings.layerOsm',
  gis: 'settings.layerGis',
  roadmap: 'settings.layerRoadmap',
  satellite: 'settings.layerSatellite',
};

export const OSM_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

export interface LayerSources {
  /** The auth reply's `gis.url`, or null. */
  gisUrl: string | null;
  /** The google key record picked for tiles, if any. */
  google: MapKeyRecord | undefined;
  /** The maps service failed (script or key) during this page's life: its layers are invalid. */
  googleFailed: boolean;
}

/** The layers offered, in display order. */
export function availableLayers(sources: LayerSources): LayerId[] {
  const layers: LayerId[] = ['osm'];
  if (sources.gisUrl) layers.push('gis');
  if (sources.google && !sources.googleFailed) layers.push('roadmap', 'satellite');
  return layers;
}

/** The saved layer when it is offered, else the fallback of plain tile layers (platform, then community). */
export function resolveLayer(saved: string | null | undefined, available: readonly LayerId[]): LayerId {
  if (saved && (available as readonly string[]).includes(saved)) return saved as LayerId;
  return fallbackLayer(available);
}

/** The plain tile layer used when the maps service is not: the platform layer when offered, else OSM. */
export function fallbackLayer(available: readonly LayerId[]): LayerId {
  return available.includes('gis') ? 'gis' : DEFAULT_LAYER;
}

export function isMapsServiceLayer(layer: LayerId): layer is 'roadmap' | 'satellite' {
  return layer === 'roadmap' || layer === 'satellite';
}

/** Spec §7 "Map tiles": the platform tile URL template from the gis url and the gis session id. */
export function gisTileUrl(gisUrl: string, sid: string | null): string {
  const base = gisUrl.replace(/\/+$/, '');
  return `${base}/{z}/{x}/{y}${sid ? `?sid=${encodeURIComponent(sid)}` : ''}`;
}
