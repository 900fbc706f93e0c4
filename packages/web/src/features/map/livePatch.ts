import type { LiveEvent, UnitMessageEvent } from '@fleetkeep/core';
import { queryClient } from '../../app/session.ts';
import { setLiveEventFilter } from '../../lib/live.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { type MapUnit, patchUnits } from './markers.ts';
import { throttle } from './throttle.ts';

/** Spec §9: maps-service update throttle. Unit messages are applied at most this often. */
export const UPDATE_THROTTLE_MS = 150;

/** Messages waiting for the next flush, per fleet, the newest per unit. */
const pending = new Map<number, Map<number, UnitMessageEvent>>();

const flush = throttle(() => {
  for (const [fid, events] of pending) {
    queryClient.setQueryData<MapUnit[]>(queryKeys.collection(fid, 'avl_unit'), (units) =>
      units ? patchUnits(units, [...events.values()]) : units,
    );
  }
  pending.clear();
}, UPDATE_THROTTLE_MS);

function isUnitMessage(d: unknown): d is UnitMessageEvent {
  return typeof d === 'object' && d !== null && typeof (d as { id?: unknown }).id === 'number';
}

/**
 * Unit message events (`avl_unit`, `t: 'e'`) of a fleet whose units are cached are patched into the cache,
 * batched per throttle window, instead of refetching every unit on every message; other events (and
 * messages of fleets not cached) go on to the usual invalidation.
 */
export function unitMessageFilter(event: LiveEvent): boolean {
  if (event.s !== 'avl_unit' || event.t !== 'e' || event.fid === null || !isUnitMessage(event.d))
    return false;
  if (queryClient.getQueryData(queryKeys.collection(event.fid, 'avl_unit')) === undefined) return false;
  let events = pending.get(event.fid);
  if (!events) {
    events = new Map();
    pending.set(event.fid, events);
  }
  events.set(event.d.id, event.d);
  flush();
  return true;
}

let installed = false;

/** Installs the filter once (the map module installs it when it first loads). */
export function installUnitMessagePatches(): void {
  if (installed) return;
  installed = true;
  setLiveEventFilter(unitMessageFilter);
}
