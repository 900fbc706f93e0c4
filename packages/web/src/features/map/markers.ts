import type { UnitWire } from '@fleetkeep/core';

/**
 * The unit wire fields the map reads (`GET /api/fleets/{fid}/units`): name and place, and the counters a
 * message moves (the actual counters `acnm`/`aceh`, since joining the fleet, move with the totals).
 */
export type MapUnit = Pick<UnitWire, 'id' | 'nm'> &
  Partial<Pick<UnitWire, 'ut' | 'cnm' | 'cneh' | 'acnm' | 'aceh' | 'lmsg' | 'pos'>>;

/** What one marker shows. */
export interface MarkerState {
  id: number;
  name: string;
  lat: number;
  lon: number;
  /** Moving units show an arrow rotated by course; others a dot. */
  moving: boolean;
  course: number;
}

export function markerOf(unit: MapUnit): MarkerState | null {
  const pos = unit.pos;
  if (!pos || !Number.isFinite(pos.y) || !Number.isFinite(pos.x)) return null;
  const moving = (pos.s ?? 0) > 0;
  return { id: unit.id, name: unit.nm, lat: pos.y, lon: pos.x, moving, course: moving ? (pos.c ?? 0) : 0 };
}

export function markersOf(units: readonly MapUnit[]): MarkerState[] {
  return units.map(markerOf).filter((m): m is MarkerState => m !== null);
}

export interface MarkerDiff {
  add: MarkerState[];
  /** Position changed. */
  move: MarkerState[];
  /** Icon changed (moving state or course). */
  restyle: MarkerState[];
  /** Name changed. */
  rename: MarkerState[];
  remove: number[];
}

/** The changes that turn the markers shown into the next ones; unchanged markers are left alone. */
export function diffMarkers(
  shown: ReadonlyMap<number, MarkerState>,
  next: readonly MarkerState[],
): MarkerDiff {
  const diff: MarkerDiff = { add: [], move: [], restyle: [], rename: [], remove: [] };
  const seen = new Set<number>();
  for (const m of next) {
    seen.add(m.id);
    const old = shown.get(m.id);
    if (!old) {
      diff.add.push(m);
      continue;
    }
    if (old.lat !== m.lat || old.lon !== m.lon) diff.move.push(m);
    if (old.moving !== m.moving || old.course !== m.course) diff.restyle.push(m);
    if (old.name !== m.name) diff.rename.push(m);
  }
  for (const id of shown.keys()) if (!seen.has(id)) diff.remove.push(id);
  return diff;
}

/** South-west and north-east corners around the markers, or null without any. */
export function boundsOf(
  points: readonly { lat: number; lon: number }[],
): [[number, number], [number, number]] | null {
  if (points.length === 0) return null;
  let s = Infinity;
  let w = Infinity;
  let n = -Infinity;
  let e = -Infinity;
  for (const p of points) {
    s = Math.min(s, p.lat);
    n = Math.max(n, p.lat);
    w = Math.min(w, p.lon);
    e = Math.max(e, p.lon);
  }
  return [
    [s, w],
    [n, e],
  ];
}
