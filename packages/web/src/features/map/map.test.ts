import { describe, expect, it } from 'vitest';
import { mapsScriptUrl, SCRIPT_POLL_ATTEMPTS, SCRIPT_POLL_MS } from './google.ts';
import { availableLayers, fallbackLayer, gisTileUrl, resolveLayer } from './layers.ts';
import { boundsOf, diffMarkers, type MarkerState, markersOf } from './markers.ts';

const google = { id: 1, provider: 'google', key: 'k', type: 16 };

describe('map layers (spec §2 "Map")', () => {
  it('offers OSM always, the platform layer with a gis url, the maps service with a google key', () => {
    expect(availableLayers({ gisUrl: null, google: undefined, googleFailed: false })).toEqual(['osm']);
    expect(availableLayers({ gisUrl: '/api/gis/tiles', google, googleFailed: false })).toEqual([
      'osm',
      'gis',
      'roadmap',
      'satellite',
    ]);
    expect(availableLayers({ gisUrl: null, google, googleFailed: true })).toEqual(['osm']);
  });

  it('restores the saved layer when offered, else falls back to plain tile layers', () => {
    expect(resolveLayer('satellite', ['osm', 'gis', 'roadmap', 'satellite'])).toBe('satellite');
    expect(resolveLayer('satellite', ['osm', 'gis'])).toBe('gis');
    expect(resolveLayer('roadmap', ['osm'])).toBe('osm');
    expect(resolveLayer(undefined, ['osm'])).toBe('osm');
    expect(fallbackLayer(['osm'])).toBe('osm');
  });

  it('builds the platform tile URL from the gis url and session id', () => {
    expect(gisTileUrl('/api/gis/tiles', 'a b')).toBe('/api/gis/tiles/{z}/{x}/{y}?sid=a%20b');
    expect(gisTileUrl('/api/gis/tiles/', null)).toBe('/api/gis/tiles/{z}/{x}/{y}');
  });
});

const unit = (id: number, pos: { y: number; x: number; s?: number; c?: number } | null, t = 100) => ({
  id,
  nm: `Unit ${id}`,
  lmsg: { t, p: {} },
  pos: pos && { t, y: pos.y, x: pos.x, s: pos.s ?? 0, c: pos.c ?? 0, z: null },
});

describe('unit markers', () => {
  it('shows units with a position; only moving ones carry their course', () => {
    expect(
      markersOf([unit(1, { y: 54, x: 27, s: 30, c: 90 }), unit(2, null), unit(3, { y: 1, x: 2, c: 45 })]),
    ).toEqual([
      { id: 1, name: 'Unit 1', lat: 54, lon: 27, moving: true, course: 90 },
      { id: 3, name: 'Unit 3', lat: 1, lon: 2, moving: false, course: 0 },
    ]);
  });

  it('diffs markers so that unchanged ones are left alone', () => {
    const m = (id: number, lat: number, extra: Partial<MarkerState> = {}): MarkerState => ({
      id,
      name: `U${id}`,
      lat,
      lon: 0,
      moving: false,
      course: 0,
      ...extra,
    });
    const shown = new Map([1, 2, 3].map((id) => [id, m(id, id)]));
    const diff = diffMarkers(shown, [
      m(1, 1),
      m(2, 20),
      m(3, 3, { moving: true, course: 10, name: 'X' }),
      m(4, 4),
    ]);
    expect(diff.add.map((x) => x.id)).toEqual([4]);
    expect(diff.move.map((x) => x.id)).toEqual([2]);
    expect(diff.restyle.map((x) => x.id)).toEqual([3]);
    expect(diff.rename.map((x) => x.id)).toEqual([3]);
    expect(diff.remove).toEqual([]);
    expect(diffMarkers(shown, [m(2, 2)]).remove).toEqual([1, 3]);
  });

  it('bounds the markers', () => {
    expect(boundsOf([])).toBeNull();
    expect(
      boundsOf([
        { lat: 54, lon: 27 },
        { lat: 53, lon: 28 },
      ]),
    ).toEqual([
      [53, 27],
      [54, 28],
    ]);
  });
});

describe('maps-service script (spec §7 "Map tiles")', () => {
  it('asks for version quarterly with the language and key', () => {
    const url = new URL(mapsScriptUrl('k 1', 'de'));
    expect(url.origin + url.pathname).toBe('https://maps.googleapis.com/maps/api/js');
    expect(url.searchParams.get('key')).toBe('k 1');
    expect(url.searchParams.get('language')).toBe('de');
    expect(url.searchParams.get('v')).toBe('quarterly');
    expect([SCRIPT_POLL_MS, SCRIPT_POLL_ATTEMPTS]).toEqual([500, 10]);
  });
});
