import type { UnitMessageEvent, UnitWire } from '@fleetkeep/core';

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

/**
 * Spec §4 "Unit events": a message sets the unit's last message and position (and its counters). Returns
 * a new list with only the messaged units replaced, or the same list when nothing applies; an older
 * message than the one shown is ignored.
 */
export function patchUnits<U extends MapUnit>(units: readonly U[], events: readonly UnitMessageEvent[]): U[] {
  if (events.length === 0) return units as U[];
  const byId = new Map(events.map((e) => [e.id, e]));
  let changed = false;
  const next = units.map((u) => {
    const e = byId.get(u.id);
    if (!e) return u;
    if (u.lmsg && e.lmsg && e.lmsg.t < u.lmsg.t) return u;
    changed = true;
    // Actual = total − total at joining + pulled history: it moves by what the total moved.
    const moved = (actual: number | undefined, before: number | undefined, after: number) =>
      actual === undefined || before === undefined
        ? actual
        : Math.round((actual + after - before) * 1000) / 1000;
    return {
      ...u,
      lmsg: e.lmsg,
      pos: e.pos ?? u.pos ?? null,
      cnm: e.cnm,
      cneh: e.cneh,
      acnm: moved(u.acnm, u.cnm, e.cnm),
      aceh: moved(u.aceh, u.cneh, e.cneh),
    };
  });
  return changed ? next : (units as U[]);
}
