import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mapsScriptUrl, SCRIPT_POLL_ATTEMPTS, SCRIPT_POLL_MS } from './google.ts';
import { availableLayers, fallbackLayer, gisTileUrl, resolveLayer } from './layers.ts';
import { boundsOf, diffMarkers, type MarkerState, markersOf, patchUnits } from './markers.ts';
import { throttle } from './throttle.ts';

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

describe('unit message patches (spec §4 "Unit events")', () => {
  const msg = (id: number, t: number, y: number) => ({
    id,
    lmsg: { t, p: { a: 1 } },
    pos: { t, y, x: 27, s: 10, c: 5, z: null },
    cnm: 7,
    cneh: 8,
  });

  it('sets last message, position and counters of the messaged units only', () => {
    const units = [unit(1, { y: 54, x: 27 }), unit(2, { y: 55, x: 27 })];
    const next = patchUnits(units, [msg(2, 200, 56)]);
    expect(next[0]).toBe(units[0]);
    expect(next[1]).toMatchObject({ lmsg: { t: 200 }, pos: { y: 56 }, cnm: 7, cneh: 8 });
  });

  it('moves the actual counters by what the totals moved', () => {
    const units = [{ ...unit(1, { y: 54, x: 27 }), cnm: 5.5, cneh: 6, acnm: 1.25, aceh: 2 }];
    expect(patchUnits(units, [msg(1, 200, 56)])[0]).toMatchObject({ cnm: 7, acnm: 2.75, cneh: 8, aceh: 4 });
  });

  it('ignores older messages and unknown units, keeping the same list', () => {
    const units = [unit(1, { y: 54, x: 27 }, 300)];
    expect(patchUnits(units, [msg(1, 200, 56), msg(9, 400, 1)])).toBe(units);
    expect(patchUnits(units, [])).toBe(units);
  });
});

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then once per window with the newest arguments', () => {
    const calls: number[] = [];
    const f = throttle((n: number) => calls.push(n), 150);
    f(1);
    f(2);
    f(3);
    expect(calls).toEqual([1]);
    vi.advanceTimersByTime(150);
    expect(calls).toEqual([1, 3]);
    vi.advanceTimersByTime(500);
    f(4);
    expect(calls).toEqual([1, 3, 4]);
    f(5);
    f.cancel();
    vi.advanceTimersByTime(500);
    expect(calls).toEqual([1, 3, 4]);
    f(6);
    f(7);
    f.flush();
    expect(calls).toEqual([1, 3, 4, 6, 7]);
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
