import { EventEmitter } from 'node:events';
import type { LiveEvent } from '@fleetkeep/core';
import pg from 'pg';
import { reportIdleError } from '../db/database.js';
import { queryKept } from '../db/pg-pool.js';
import type { EventBus } from './bus.js';

const CHANNEL = 'fleetkeep_events';
/** Wake-ups of background consumers (payload: the topic), apart from the websocket events. */
const WAKE_CHANNEL = 'fleetkeep_wake';
/** NOTIFY payloads must stay under 8000 bytes; larger events travel through a table. */
const MAX_INLINE = 7000;

/**
 * LISTEN/NOTIFY bus. Every instance, the publisher included, receives events through its LISTEN
 * connection, so local and remote listeners see one order. Events published together are packed several
 * to a payload (`publishMany`). Large payloads are parked in `event_payloads` and the notification carries
 * their id.
 */
export class PgBus implements EventBus {
  private readonly emitter = new EventEmitter();
  private listenClient: pg.Client | undefined;
  private closed = false;
  private delivery: Promise<void> = Promise.resolve();
  private connectedOnce = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    private readonly onError: (err: unknown) => void,
  ) {
    this.emitter.setMaxListeners(0);
  }

  static async start(url: string, onError: (err: unknown) => void): Promise<PgBus> {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on('error', reportIdleError);
    // A client in use that loses its connection must not crash the process (see db/database.ts).
    pool.on('connect', (client) => client.on('error', reportIdleError));
    const bus = new PgBus(pool, url, onError);
    await bus.connect();
    return bus;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      // Delivery is chained so that a parked payload, fetched asynchronously, keeps its place in order.
      if (msg.channel === CHANNEL && msg.payload) {
        const payload = msg.payload;
        this.delivery = this.delivery.then(() => this.deliver(payload));
      } else if (msg.channel === WAKE_CHANNEL && msg.payload) {
        this.emitter.emit(`wake:${msg.payload}`);
      }
    });
    client.on('error', (err: Error & { code?: string }) => {
      if (!this.closed) this.onError(err);
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    await client.query(`listen ${WAKE_CHANNEL}`);
    const reconnected = this.listenClient === undefined && this.connectedOnce;
    this.listenClient = client;
    this.connectedOnce = true;
    // Wake-ups sent while the connection was down are lost: wake every topic's consumers once.
    if (reconnected)
      for (const name of this.emitter.eventNames())
        if (String(name).startsWith('wake:')) this.emitter.emit(name);
  }

  private reconnect(client: pg.Client): void {
    if (this.closed || this.listenClient !== client) return;
    this.listenClient = undefined;
    const retry = () => {
      if (this.closed) return;
      this.connect().catch((err) => {
        this.onError(err);
        setTimeout(retry, 1000).unref();
      });
    };
    setTimeout(retry, 200).unref();
  }

  private async deliver(payload: string): Promise<void> {
    try {
      let text = payload;
      if (payload.startsWith('#')) {
        const res = await this.pool.query<{ payload: string }>(
          'select payload from event_payloads where id = $1',
          [payload.slice(1)],
        );
        if (!res.rows[0]) return;
        text = res.rows[0].payload;
      }
      const parsed = JSON.parse(text) as LiveEvent | LiveEvent[];
      if (Array.isArray(parsed)) for (const event of parsed) this.emit(event);
      else this.emit(parsed);
    } catch (err) {
      this.onError(err);
    }
  }

  /** One event to the listeners: a listener that throws costs that event only, not the rest of its pack. */
  private emit(event: LiveEvent): void {
    try {
      this.emitter.emit('event', event);
    } catch (err) {
      this.onError(err);
    }
  }

  /**
   * A notification, sent again once on a live connection when the first one's was lost (db/pg-pool.ts):
   * the writer's data is committed by then, so a lost connection must not fail its request, and an
   * event heard twice is harmless (a listener applies the same record again).
   */
  private async notify(text: string, values: unknown[]): Promise<void> {
    await queryKept(this.pool, { text, values }, true);
  }

  async publish(event: LiveEvent): Promise<void> {
    const text = JSON.stringify(event);
    if (Buffer.byteLength(text) <= MAX_INLINE) {
      await this.notify('select pg_notify($1, $2)', [CHANNEL, text]);
      return;
    }
    await this.park(text);
  }

  /** An event too large for a payload: stored in `event_payloads`, the notification carries its id. */
  private async park(text: string): Promise<void> {
    const res = await this.pool.query<{ id: string }>(
      'insert into event_payloads (created_at, payload) values ($1, $2) returning id',
      [Math.floor(Date.now() / 1000), text],
    );
    await this.notify('select pg_notify($1, $2)', [CHANNEL, `#${res.rows[0]!.id}`]);
    // Parked payloads are read within moments; a day is ample for an instance that lags.
    await this.pool.query('delete from event_payloads where created_at < $1', [
      Math.floor(Date.now() / 1000) - 86400,
    ]);
  }

  /**
   * Several events in order, packed: as many as fit one payload travel as one JSON array (`[e1,e2,…]`,
   * unpacked by every listener in `deliver`), and all payloads go out in one statement (`pg_notify` over
   * an array keeps their order). A bulk change of thousands of services (the status engine's first run)
   * thus costs a tenth of the notifications and of the listeners' wake-ups, while sockets still
   * receive one event per record. An event too large for a payload on its own is parked, in its place.
   */
  async publishMany(events: LiveEvent[]): Promise<void> {
    const packs = new PayloadPacker(MAX_INLINE);
    const flush = async () => {
      const payloads = packs.take();
      if (payloads.length === 0) return;
      await this.notify(
        'select pg_notify($1, p) from unnest($2::text[]) with ordinality as x(p, n) order by n',
        [CHANNEL, payloads],
      );
    };
    for (const event of events) {
      const text = JSON.stringify(event);
      if (packs.add(text)) continue;
      await flush();
      await this.park(text);
    }
    await flush();
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  async wake(topic: string): Promise<void> {
    await this.notify('select pg_notify($1, $2)', [WAKE_CHANNEL, topic]);
  }

  onWake(topic: string, listener: () => void): () => void {
    this.emitter.on(`wake:${topic}`, listener);
    return () => this.emitter.off(`wake:${topic}`, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.emitter.removeAllListeners();
    const client = this.listenClient;
    this.listenClient = undefined;
    await client?.end().catch(() => undefined);
    await this.pool.end();
  }
}

/**
 * Packs event texts, in order, into NOTIFY payloads of at most `limit` bytes: a lone event as itself
 * (`{…}`), several as a JSON array of them (`[{…},{…}]`), which `deliver` tells apart by the first
 * character (a parked one starts with `#`).
 */
export class PayloadPacker {
  private readonly payloads: string[] = [];
  private pack: string[] = [];
  /** Bytes of the open pack as an array: brackets and commas included. */
  private bytes = 1;

  constructor(private readonly limit: number) {}

  /** Adds an event's text; false when it is too large for any payload (the caller parks it). */
  add(text: string): boolean {
    const size = Buffer.byteLength(text);
    if (size > this.limit) return false;
    if (this.bytes + size + 1 > this.limit) this.close();
    this.pack.push(text);
    this.bytes += size + 1;
    return true;
  }

  /** The payloads so far, in order; the packer starts empty again. */
  take(): string[] {
    this.close();
    return this.payloads.splice(0);
  }

  private close(): void {
    if (this.pack.length === 0) return;
    this.payloads.push(this.pack.length === 1 ? this.pack[0]! : `[${this.pack.join(',')}]`);
    this.pack = [];
    this.bytes = 1;
  }
}
