import type { UnitMessageEvent, UnitWire } from '@fleetkeep/core';

/**
 * Pure rules of how live events change the cached lists (spec §4 "Live events"), used by lib/live.ts for
 * every screen: unit messages and unit updates are patched into the cached units in place, other events
 * refetch their collections, coalesced. Patches return a new list with only the touched units replaced
 * (the others keep their identity, so rows and markers of untouched units do not render again), or the
 * same list when nothing applies.
 */

/** The fields of a cached unit the rules read and write; screens cache the whole wire record. */
export type CachedUnit = Pick<UnitWire, 'id'> &
  Partial<Pick<UnitWire, 'cnm' | 'cneh' | 'acnm' | 'aceh' | 'lmsg' | 'pos' | 'prp' | 'prms'>>;

/** An update event's payload: the unit's changed fields (the server sends its whole wire record). */
export type UnitUpdate = { id: number } & Record<string, unknown>;

export function isUnitMessage(d: unknown): d is UnitMessageEvent {
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof (d as { id?: unknown }).id === 'number' &&
    'cnm' in d &&
    'cneh' in d
  );
}

export function isUnitUpdate(d: unknown): d is UnitUpdate {
  return typeof d === 'object' && d !== null && typeof (d as { id?: unknown }).id === 'number';
}

/**
 * Spec §4 "Unit events": a message sets the unit's last message and position (and its counters; the
 * actual counters move by what the totals moved). An older message than the one cached is ignored.
 */
export function applyUnitMessages<U extends CachedUnit>(
  units: readonly U[],
  events: readonly UnitMessageEvent[],
): U[] {
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

/** The maps an update merges key by key rather than replaces (spec §4: properties and parameters). */
const MERGED = ['prp', 'prms'] as const;

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';

/** Merges a map of properties or parameters: an empty value removes the key. */
export function mergeParams(
  before: Record<string, unknown> | undefined,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(before ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (isEmpty(v)) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** One unit with an update merged in: plain fields are replaced, properties and parameters merged. */
export function mergeUnit<U extends CachedUnit>(unit: U, update: UnitUpdate): U {
  const next: Record<string, unknown> = { ...unit };
  for (const [k, v] of Object.entries(update)) {
    if (k === 'id') continue;
    if ((MERGED as readonly string[]).includes(k) && typeof v === 'object' && v !== null)
      next[k] = mergeParams(unit[k as (typeof MERGED)[number]] as Record<string, unknown>, v as never);
    else next[k] = v;
  }
  return next as U;
}

/**
 * Spec §4 "Unit events": updates merge into the cached units. Returns the new list and the ids it did
 * not hold (a unit the list does not know yet is fetched with the list instead).
 */
export function applyUnitUpdates<U extends CachedUnit>(
  units: readonly U[],
  updates: readonly UnitUpdate[],
): { units: U[]; missing: number[] } {
  if (updates.length === 0) return { units: units as U[], missing: [] };
  const byId = new Map<number, UnitUpdate>();
  for (const u of updates) byId.set(u.id, { ...(byId.get(u.id) ?? {}), ...u });
  const seen = new Set<number>();
  const next = units.map((u) => {
    const update = byId.get(u.id);
    if (!update) return u;
    seen.add(u.id);
    return mergeUnit(u, update);
  });
  const missing = [...byId.keys()].filter((id) => !seen.has(id));
  return { units: seen.size > 0 ? next : (units as U[]), missing };
}

/** Removes deleted units; the same list when none of them was cached. */
export function removeUnits<U extends CachedUnit>(units: readonly U[], ids: readonly number[]): U[] {
  const gone = new Set(ids);
  const next = units.filter((u) => !gone.has(u.id));
  return next.length === units.length ? (units as U[]) : next;
}

/**
 * Calls `fn` at most once per `ms`: the first call runs at once, later calls within the window run once at
 * its end with the newest arguments. `cancel` drops a pending call.
 */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
): ((...args: A) => void) & { cancel: () => void; flush: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | null = null;
  const run = () => {
    timer = undefined;
    last = Date.now();
    const args = pending;
    pending = null;
    if (args) fn(...args);
  };
  const throttled = (...args: A) => {
    pending = args;
    if (timer !== undefined) return;
    const wait = last + ms - Date.now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };
  throttled.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    pending = null;
  };
  throttled.flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    run();
  };
  return throttled;
}

export interface Timers {
  set: (fn: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Coalescer {
  /** Asks for a run of `key`; runs at the end of the window, never two of one key at once. */
  schedule: (key: string) => void;
  /** Drops everything waiting (logout). */
  cancel: () => void;
}

/**
 * Coalesces refetches per key: the first request opens a window of `delayMs` and the run happens at
 * its end (trailing), whatever arrived meanwhile; a request during a run waits for the run to finish and
 * then opens a new window. So each key has at most one run in flight and at most one waiting.
 */
export function createCoalescer(
  run: (key: string) => Promise<unknown>,
  delayMs: number,
  timers: Timers = realTimers,
): Coalescer {
  const waiting = new Map<string, unknown>();
  const running = new Set<string>();
  const again = new Set<string>();
  let generation = 0;

  const start = (key: string) => {
    waiting.set(
      key,
      timers.set(() => {
        waiting.delete(key);
        running.add(key);
        const mine = generation;
        void Promise.resolve()
          .then(() => run(key))
          .catch(() => undefined)
          .finally(() => {
            if (mine !== generation) return;
            running.delete(key);
            if (again.delete(key)) start(key);
          });
      }, delayMs),
    );
  };

  return {
    schedule: (key) => {
      if (waiting.has(key)) return;
      if (running.has(key)) {
        again.add(key);
        return;
      }
      start(key);
    },
    cancel: () => {
      generation++;
      for (const handle of waiting.values()) timers.clear(handle);
      waiting.clear();
      running.clear();
      again.clear();
    },
  };
}
