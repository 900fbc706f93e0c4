import type { LiveEvent } from '@fleetkeep/core';

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

/**
 * An event filter: an event it takes (returns true for) is handled by it and not passed on. The map uses
 * it to patch unit messages into the query cache instead of refetching the units (spec §4 "Unit events").
 */
export type LiveEventFilter = (event: LiveEvent) => boolean;
let eventFilter: LiveEventFilter | null = null;

export function setLiveEventFilter(filter: LiveEventFilter | null): void {
  eventFilter = filter;
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
