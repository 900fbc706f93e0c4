import type { LiveEvent, UnitMessageEvent } from '@fleetkeep/core';
import type { QueryClient } from '@tanstack/react-query';
import {
  applyUnitMessages,
  applyUnitUpdates,
  type CachedUnit,
  createCoalescer,
  isUnitMessage,
  isUnitUpdate,
  removeUnits,
  throttle,
  type UnitUpdate,
} from './liveCache.ts';
import { keysForEvent, queryKeys } from './queryKeys.ts';

/**
 * The one live-events socket (spec §7, DESIGN §6): opens `/events`, sends `{ssid}` once open,
 * reconnects with backoff. Reports its state so the shell can show the connection overlay.
 */
export type LiveState = 'connecting' | 'open' | 'lost';

export interface LiveHandlers {
  onEvent: (event: LiveEvent) => void;
  onState: (state: LiveState) => void;
  /** The server refused the session (close code 4001): the shell logs out. */
  onRejected: () => void;
}

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

const SESSION_REJECTED = 4001;

/** An event filter: an event it takes (returns true for) is handled by it and not passed on. */
export type LiveEventFilter = (event: LiveEvent) => boolean;
let eventFilter: LiveEventFilter | null = null;

export function setLiveEventFilter(filter: LiveEventFilter | null): void {
  eventFilter = filter;
}

/** More filters, each owned by its feature (the bell takes `notification` events); returns the removal. */
const extraFilters = new Set<LiveEventFilter>();
export function addLiveEventFilter(filter: LiveEventFilter): () => void {
  extraFilters.add(filter);
  return () => extraFilters.delete(filter);
}

export interface LiveConnection {
  close: () => void;
}

export function eventsUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/events`;
}

export function connectLive(ssid: string, handlers: LiveHandlers): LiveConnection {
  let socket: WebSocket | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const open = () => {
    if (closed) return;
    handlers.onState(attempt === 0 ? 'connecting' : 'lost');
    const ws = new WebSocket(eventsUrl(window.location));
    socket = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ ssid }));
    };
    ws.onmessage = (message) => {
      let data: unknown;
      try {
        data = JSON.parse(String(message.data));
      } catch {
        console.warn('live: Invalid JSON:', message.data);
        return;
      }
      const event = data as Partial<LiveEvent> & { error?: number };
      if (event.error !== undefined) return;
      if (event.s === 'user' && (event.d as { ready?: boolean } | undefined)?.ready) {
        attempt = 0;
        handlers.onState('open');
        return;
      }
      if (typeof event.s !== 'string' || typeof event.t !== 'string') {
        console.warn('live: unknown event', event);
        return;
      }
      if (eventFilter?.(event as LiveEvent)) return;
      for (const filter of extraFilters) if (filter(event as LiveEvent)) return;
      handlers.onEvent(event as LiveEvent);
    };
    ws.onclose = (close) => {
      socket = null;
      if (closed) return;
      if (close.code === SESSION_REJECTED) {
        handlers.onRejected();
        return;
      }
      console.info('live: socket closed', close.code);
      handlers.onState('lost');
      const delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
      attempt++;
      timer = setTimeout(open, delay);
    };
  };
  open();

  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      socket?.close(1000, 'Logout');
      socket = null;
    },
  };
}

/** Spec §9: maps-service update throttle. Unit messages and updates are patched in at most this often. */
export const UNIT_PATCH_THROTTLE_MS = 150;

/**
 * Refetches of a collection after live events wait this long (trailing) and take everything that arrived
 * meanwhile along: a burst of events costs one request per collection, never one per event.
 */
export const LIVE_REFETCH_DELAY_MS = 400;

interface PendingUnits {
  messages: Map<number, UnitMessageEvent>;
  updates: UnitUpdate[];
  removed: number[];
}

/**
 * Applies live events to the query cache for every screen (spec §4 "Live events"): unit messages and
 * unit updates and deletions are patched into the cached units in place (lib/liveCache.ts), batched per
 * throttle window; any other event marks its collections stale, and those a screen shows are fetched
 * again, coalesced (at most one request in flight per collection, after a trailing delay). Screens keep
 * their open menus, dialogs, selections, scroll and typing: the lists change, their components stay.
 */
export function createLiveCache(client: QueryClient) {
  const refetch = createCoalescer(async (key) => {
    await client.invalidateQueries({ queryKey: JSON.parse(key) as unknown[], refetchType: 'active' });
  }, LIVE_REFETCH_DELAY_MS);
  const stale = (key: readonly unknown[]) => refetch.schedule(JSON.stringify(key));

  const pending = new Map<number, PendingUnits>();
  const flush = throttle(() => {
    const work = [...pending];
    pending.clear();
    for (const [fid, p] of work) {
      let missing: number[] = [];
      client.setQueryData<CachedUnit[]>(queryKeys.collection(fid, 'avl_unit'), (units) => {
        if (!units) return units;
        const messaged = applyUnitMessages(units, [...p.messages.values()]);
        const updated = applyUnitUpdates(messaged, p.updates);
        missing = updated.missing;
        return removeUnits(updated.units, p.removed);
      });
      if (missing.length > 0) stale(queryKeys.collection(fid, 'avl_unit'));
    }
  }, UNIT_PATCH_THROTTLE_MS);
  const pendingOf = (fid: number) => {
    let p = pending.get(fid);
    if (!p) {
      p = { messages: new Map(), updates: [], removed: [] };
      pending.set(fid, p);
    }
    return p;
  };

  /** Unit events of a fleet whose units are cached; false when the event is left to the refetch. */
  const patchUnits = (event: LiveEvent): boolean => {
    const fid = event.fid;
    if (event.s !== 'avl_unit' || fid === null) return false;
    if (client.getQueryData(queryKeys.collection(fid, 'avl_unit')) === undefined) return false;
    if (event.t === 'e' && isUnitMessage(event.d)) {
      // A message moves counters and place only; the statistics refetch their own keys (objects/api.ts).
      pendingOf(fid).messages.set(event.d.id, event.d);
    } else if (event.t === 'u' && isUnitUpdate(event.d)) {
      pendingOf(fid).updates.push(event.d);
      // A counters correction changes the period figures.
      stale(queryKeys.statistics(fid));
    } else if (event.t === 'd' && isUnitUpdate(event.d)) {
      pendingOf(fid).removed.push(event.d.id);
      stale(queryKeys.statistics(fid));
    } else return false;
    flush();
    return true;
  };

  return {
    apply(event: LiveEvent): void {
      if (patchUnits(event)) return;
      // Messages of units nobody has cached change nothing a screen shows.
      if (event.s === 'avl_unit' && event.t === 'e') return;
      for (const key of keysForEvent(event.s, event.fid)) stale(key);
    },
    /** Logout: nothing waiting is applied to the next session's cache. */
    reset(): void {
      flush.cancel();
      pending.clear();
      refetch.cancel();
    },
  };
}
