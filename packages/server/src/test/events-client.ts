import type { LiveEvent } from '@fleetkeep/core';
import WebSocket from 'ws';

/** A websocket client of `/events` that records what arrives, for tests. */
export class EventsClient {
  readonly received: LiveEvent[] = [];
  closeCode: number | undefined;
  private waiters: { match: (e: LiveEvent) => boolean; resolve: (e: LiveEvent) => void }[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const event = JSON.parse(String(raw)) as LiveEvent;
      this.received.push(event);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(event)) return true;
        w.resolve(event);
        return false;
      });
    });
    socket.on('close', (code) => {
      this.closeCode = code;
    });
  }

  /** Connects to `<base>/events` and, when an ssid is given, completes the `{ssid}` handshake. */
  static async connect(baseUrl: string, ssid?: string): Promise<EventsClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/events`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const client = new EventsClient(socket);
    if (ssid !== undefined) {
      const ready = client.next((e) => e.s === 'user' && (e.d as { ready?: boolean }).ready === true);
      socket.send(JSON.stringify({ ssid }));
      await ready;
    }
    return client;
  }

  /** Resolves with the first event (already received or coming) that matches; rejects after `ms`. */
  next(match: (e: LiveEvent) => boolean, ms = 10_000): Promise<LiveEvent> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('event did not arrive')), ms);
      this.waiters.push({
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  /** Resolves with the close code. */
  closed(ms = 10_000): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket did not close')), ms);
      this.socket.once('close', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  close(): void {
    this.socket.close();
  }
}
