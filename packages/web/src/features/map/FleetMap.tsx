import 'leaflet/dist/leaflet.css';
import { Box, Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import * as L from 'leaflet';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { saveSettings, useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import classes from './FleetMap.module.css';
import {
  loadMapsService,
  type MapsServiceError,
  MapsServiceFailure,
  onMapsServiceAuthFailure,
} from './google.ts';
import {
  gisTileUrl,
  isMapsServiceLayer,
  LAYER_LABEL,
  type LayerId,
  OSM_ATTRIBUTION,
  OSM_URL,
  resolveLayer,
} from './layers.ts';
import { boundsOf, diffMarkers, type MarkerState, markerOf, markersOf } from './markers.ts';
import { useFleetUnits } from './useFleetUnits.ts';
import { markMapsServiceFailed, useMapLayers } from './useMapLayers.ts';

/** Spec §9 "Map": default centre lon 27 / lat 54, zoom 4 (min 4, max 18), tiles of 256 px. */
const CENTRE: L.LatLngTuple = [54, 27];
const ZOOM = 4;
const MIN_ZOOM = 4;
const MAX_ZOOM = 18;
const TILE_SIZE = 256;
/** Zoom used to show one unit. */
const UNIT_ZOOM = 14;

function iconOf(m: MarkerState): L.DivIcon {
  const shape = m.moving
    ? `<path d="M12 2 L20 21 L12 16.5 L4 21 Z" fill="#1c7ed6" stroke="#fff" stroke-width="1.5" stroke-linejoin="round"/>`
    : `<circle cx="12" cy="12" r="7" fill="#1c7ed6" stroke="#fff" stroke-width="2.5"/>`;
  return L.divIcon({
    className: `${classes.marker} fk-unit-marker fk-unit-${m.id}`,
    html: `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" style="transform: rotate(${m.course}deg)">${shape}</svg>`,
    iconSize: [24, 24],
    iconAnchor: [12, 12],
    tooltipAnchor: [0, -12],
  });
}

interface Shown {
  marker: L.Marker;
  state: MarkerState;
}

/**
 * The map of spec §2 "Map": base layers to choose (saved in the user settings), the fleet's units as
 * markers that follow their messages, zoom, an optional pan-to-unit button and a full-size toggle. With
 * `mode="unit"` it shows the unit of the route (`/unit/{id}`) only.
 */
/** The map where the user may see it: without viewMap on the current fleet (need map.view) nothing is shown. */
export default function FleetMapIfAllowed(props: { mode?: 'fleet' | 'unit' }) {
  if (!useCan('map.view')) return null;
  return <FleetMap {...props} />;
}

function FleetMap({ mode = 'fleet' }: { mode?: 'fleet' | 'unit' }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const params = useParams();
  const unitId = mode === 'unit' ? Number(params.id) : null;
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const saved = session.status === 'authenticated' ? session.auth.model.s.layer : null;
  const units = useFleetUnits(fid);
  const layers = useMapLayers();
  const [chosen, setChosen] = useState<LayerId | null>(null);
  const layer = resolveLayer(chosen ?? saved, layers.available);
  const [warning, setWarning] = useState<MapsServiceError | null>(null);
  const [full, setFull] = useState(false);

  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const shown = useRef(new Map<number, Shown>());
  const fitted = useRef(false);

  // The map itself, once.
  useEffect(() => {
    if (!container.current) return;
    const m = L.map(container.current, {
      center: CENTRE,
      zoom: ZOOM,
      minZoom: MIN_ZOOM,
      maxZoom: MAX_ZOOM,
      zoomControl: true,
    });
    m.attributionControl.setPrefix(false);
    map.current = m;
    const markers = shown.current;
    // The container changes size with the window, a phone's rotation or a tab that becomes visible:
    // Leaflet must measure again, or tiles stay grey and clicks land off by the difference.
    let frame = 0;
    const resized = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => m.invalidateSize({ pan: false }));
    });
    resized.observe(container.current);
    return () => {
      resized.disconnect();
      cancelAnimationFrame(frame);
      m.remove();
      map.current = null;
      markers.clear();
      fitted.current = false;
    };
  }, []);

  // The base layer; the maps-service layers load the provider script first (spec §8 on failure).
  const googleKey = layers.google?.key;
  const { gisUrl, gisSid, pending } = layers;
  useEffect(() => {
    const m = map.current;
    if (!m || pending) return;
    let base: L.Layer | null = null;
    let cancelled = false;
    const common = { tileSize: TILE_SIZE, maxZoom: MAX_ZOOM, minZoom: MIN_ZOOM };
    if (layer === 'gis' && gisUrl) {
      base = L.tileLayer(gisTileUrl(gisUrl, gisSid), { ...common, className: 'fk-layer-gis' });
    } else if (isMapsServiceLayer(layer) && googleKey) {
      loadMapsService(googleKey, i18n.language)
        .then(() => import('leaflet.gridlayer.googlemutant'))
        .then(({ default: GoogleMutant }) => {
          if (cancelled) return;
          base = new GoogleMutant({ type: layer, maxZoom: MAX_ZOOM, minZoom: MIN_ZOOM });
          base.addTo(m);
        })
        .catch((err: unknown) => {
          console.warn('map: maps service failed', err);
          if (!cancelled) setWarning(err instanceof MapsServiceFailure ? err.kind : 'load');
        });
    } else {
      base = L.tileLayer(OSM_URL, { ...common, attribution: OSM_ATTRIBUTION, className: 'fk-layer-osm' });
    }
    base?.addTo(m);
    return () => {
      cancelled = true;
      if (base) m.removeLayer(base);
    };
  }, [layer, gisUrl, gisSid, googleKey, pending, i18n.language]);

  useEffect(() => onMapsServiceAuthFailure(() => setWarning('auth')), []);

  // Markers: only what changed is touched; the first units with a position are fitted into view.
  useEffect(() => {
    const m = map.current;
    if (!m || !units.data) return;
    const all = markersOf(units.data);
    const next = unitId === null ? all : all.filter((x) => x.id === unitId);
    const diff = diffMarkers(new Map([...shown.current].map(([id, s]) => [id, s.state])), next);
    for (const x of diff.remove) {
      shown.current.get(x)?.marker.remove();
      shown.current.delete(x);
    }
    for (const x of diff.add) {
      const marker = L.marker([x.lat, x.lon], { icon: iconOf(x), keyboard: false })
        .bindTooltip(x.name, { direction: 'top' })
        .addTo(m);
      shown.current.set(x.id, { marker, state: x });
    }
    for (const x of diff.move) shown.current.get(x.id)?.marker.setLatLng([x.lat, x.lon]);
    for (const x of diff.restyle) shown.current.get(x.id)?.marker.setIcon(iconOf(x));
    for (const x of diff.rename) shown.current.get(x.id)?.marker.setTooltipContent(x.name);
    for (const x of [...diff.move, ...diff.restyle, ...diff.rename]) {
      const s = shown.current.get(x.id);
      if (s) s.state = x;
    }
    if (!fitted.current && next.length > 0) {
      fitted.current = true;
      const bounds = boundsOf(next);
      if (unitId !== null || next.length === 1) m.setView([next[0]!.lat, next[0]!.lon], UNIT_ZOOM);
      else if (bounds) m.fitBounds(bounds, { padding: [32, 32], maxZoom: UNIT_ZOOM });
    }
  }, [units.data, unitId]);

  // Full size: the map fills the window; Escape leaves it.
  useEffect(() => {
    map.current?.invalidateSize();
    if (!full) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setFull(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [full]);

  const unit = unitId === null ? null : units.data?.find((u) => u.id === unitId);
  const unitMarker = unit ? markerOf(unit) : null;
  const panToUnit = useCallback(() => {
    if (unitMarker)
      map.current?.setView([unitMarker.lat, unitMarker.lon], Math.max(map.current.getZoom(), UNIT_ZOOM));
  }, [unitMarker]);

  const changeLayer = (next: LayerId) => {
    setChosen(next);
    saveSettings({ layer: next }).catch((err: unknown) => console.warn("Settings wasn't saved", err));
  };

  const closeWarning = () => {
    // Spec §8: after OK the maps-service layers are invalid and plain tile layers are used.
    markMapsServiceFailed();
    setWarning(null);
  };

  return (
    <Stack gap="xs" className={full ? classes.full : undefined}>
      <Group gap="xs" align="end" wrap="wrap">
        <NativeSelect
          size="xs"
          label={t('settings.mapLayer')}
          value={layer}
          onChange={(e) => changeLayer(e.currentTarget.value as LayerId)}
          data={layers.available.map((l) => ({ value: l, label: t(LAYER_LABEL[l]) }))}
        />
        {unitId !== null && (
          <Button size="xs" variant="default" onClick={panToUnit} disabled={!unitMarker}>
            {t('map.panToUnit')}
          </Button>
        )}
        <Button size="xs" variant="default" onClick={() => setFull((f) => !f)} aria-pressed={full}>
          {t(full ? 'map.exitFullSize' : 'map.fullSize')}
        </Button>
        {unitId !== null && unit && !unitMarker && (
          <Text size="sm" c="dimmed">
            {t('map.noPosition')}
          </Text>
        )}
      </Group>
      <Box
        ref={container}
        className={classes.map}
        role="region"
        aria-label={t('map.label')}
        data-layer={layer}
        data-testid="fleet-map"
      />
      <Modal
        opened={warning !== null}
        onClose={closeWarning}
        title={t('leave.title')}
        closeOnClickOutside={false}
        centered
        zIndex={1000}
      >
        <Text mb="md" role="alert">
          {t(warning === 'auth' ? 'map.errorAuth' : 'map.errorLoad')} {t('map.freeMaps')}
        </Text>
        <Button onClick={closeWarning}>{t('common.ok')}</Button>
      </Modal>
    </Stack>
  );
}
