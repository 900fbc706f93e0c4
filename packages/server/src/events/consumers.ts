import type { DomainEvent, DomainEventType } from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import { type AppContext, now } from '../context.js';
import type { Database } from '../db/schema.js';

/**
 * Consumers of domain events (events/outbox.ts): notifications, webhooks and report mails register
 * one each. Exactly once per consumer name: the consumer's cursor row (`event_consumers`) is locked
 * while a batch is handled (`FOR UPDATE SKIP LOCKED` on PostgreSQL: an instance that finds it taken
 * leaves the batch to the holder and looks again shortly) and advanced in the same transaction as the
 * consumer's own writes. A restart resumes from the committed cursor; a failed batch rolls back with
 * the cursor and is offered again on the next wake-up or sweep.
 */

/** The topic of the bus wake-ups that say new events were published (events/bus.ts). */
export const OUTBOX_TOPIC = 'outbox';

/** An event as consumers get it: with its publication number. */
export type PublishedDomainEvent = DomainEvent & { seq: number };

export interface DomainEventConsumer {
  /** Stable and unique: it names the cursor, so every instance that registers it shares one. */
  name: string;
  /**
   * Where a consumer seen for the first time begins: 'latest' (the default) with events published from
   * now on, 'earliest' with every event still kept (30 days, jobs/retention.ts).
   */
  start?: 'earliest' | 'latest';
  /** Only these types are handed over; the cursor moves past the others all the same. */
  types?: readonly DomainEventType[];
  /** Events per transaction (default 100). */
  batchSize?: number;
  /**
   * Handles a batch in publication order inside the consumer's transaction. Write through `trx` only
   * (SQLite has one connection, held by this transaction); anything sent outside the database should be
   * recorded here and sent after, so that a retry does not send it twice. Throwing rolls back the
   * batch and the cursor. It may return a function to run once the batch committed (live events of
   * what it wrote); a failure there is logged, the batch stays handled.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a consumer with nothing to do after the commit returns nothing
  handle(trx: Kysely<Database>, events: PublishedDomainEvent[]): Promise<void | AfterCommit>;
}

/** What a consumer does after its batch committed. */
export type AfterCommit = () => unknown;

const DEFAULT_BATCH = 100;
/** After finding the cursor taken by another instance, look again this much later. */
const RETRY_LOCKED_MS = 500;
/** A batch found the cursor locked by another instance. */
const LOCKED = -1;

/**
 * The column holding the publication order (events/outbox.ts): the id where writers are serial
 * (SQLite), else `seq`, which the publisher gives committed rows (PostgreSQL).
 */
export function orderColumn(ctx: AppContext): 'id' | 'seq' {
  return ctx.db.ops.serialWriters ? 'id' : 'seq';
}

function toPublished(rows: { n: number | null; payload: string }[]): PublishedDomainEvent[] {
  return rows.map((r) => ({ ...(JSON.parse(r.payload) as DomainEvent), seq: Number(r.n) }));
}

interface Runner {
  consumer: DomainEventConsumer;
  /** The consumer's types; undefined: every type. */
  types: string[] | undefined;
  cursorReady: boolean;
  running: Promise<void> | null;
  queued: Promise<void> | null;
  retry: NodeJS.Timeout | undefined;
}

/** The consumers registered on one server instance. */
export class Consumers {
  private readonly runners = new Map<string, Runner>();
  private unsubscribe: (() => void) | undefined;
  private closed = false;

  constructor(private readonly ctx: AppContext) {}

  register(consumer: DomainEventConsumer): () => void {
    if (this.runners.has(consumer.name)) throw new Error(`Consumer "${consumer.name}" is already registered`);
    const runner: Runner = {
      consumer,
      types: consumer.types ? [...new Set<string>(consumer.types)] : undefined,
      cursorReady: false,
      running: null,
      queued: null,
      retry: undefined,
    };
    this.runners.set(consumer.name, runner);
    this.unsubscribe ??= this.ctx.bus.onWake(OUTBOX_TOPIC, () => void this.drainAll());
    void this.drain(runner);
    return () => {
      clearTimeout(runner.retry);
      this.runners.delete(consumer.name);
    };
  }

  /** Whether a consumer registered here wants an event of one of these types (Outbox `publish`). */
  wantsAny(types: Iterable<string>): boolean {
    for (const type of types)
      for (const r of this.runners.values()) if (r.types === undefined || r.types.includes(type)) return true;
    return false;
  }

  /**
   * Lets every consumer catch up: resolves when each has handled what was published before the call,
   * or found its cursor held by another instance (which then handles it).
   */
  async drainAll(): Promise<void> {
    await Promise.all([...this.runners.values()].map((r) => this.drain(r)));
  }

  /**
   * One run per consumer at a time on this instance; calls during a run queue one more run (which then
   * sees everything published before them) and share its promise.
   */
  private drain(r: Runner): Promise<void> {
    if (r.queued) return r.queued;
    const previous = r.running ?? Promise.resolve();
    const next: Promise<void> = previous.then(async () => {
      r.queued = null;
      r.running = next;
      try {
        await this.run(r);
      } finally {
        if (r.running === next) r.running = null;
      }
    });
    r.queued = next;
    return next;
  }

  private async run(r: Runner): Promise<void> {
    if (this.closed || !this.runners.has(r.consumer.name)) return;
    try {
      if (!r.cursorReady) {
        await this.ensureCursor(r.consumer);
        r.cursorReady = true;
      }
      const size = r.consumer.batchSize ?? DEFAULT_BATCH;
      for (;;) {
        const n = await this.batch(r, size);
        if (n === LOCKED) {
          // The holder loops until it finds nothing, but may have looked just before our wake-up's
          // events were published: look again once it is done.
          clearTimeout(r.retry);
          r.retry = setTimeout(() => void this.drain(r), RETRY_LOCKED_MS);
          r.retry.unref();
          return;
        }
        if (n < size || this.closed) return;
        // A turn for the event loop between full batches: 10,000 events of one import never hold the
        // server (on SQLite every statement is synchronous).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      this.ctx.log.error({ err, consumer: r.consumer.name }, 'domain event consumer failed (retried later)');
    }
  }

  /** The cursor row, made once: at 0 ('earliest') or after the last published event ('latest'). */
  private async ensureCursor(consumer: DomainEventConsumer): Promise<void> {
    const start =
      consumer.start === 'earliest'
        ? sql<number>`0`
        : sql<number>`(select coalesce(max(${sql.ref(orderColumn(this.ctx))}), 0) from domain_events)`;
    await this.ctx.db.kysely
      .insertInto('event_consumers')
      .values({ name: consumer.name, last_seq: start, updated_at: now() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  /** One batch in one transaction; the number of events handed over (a full batch: look again), or LOCKED. */
  private async batch(r: Runner, size: number): Promise<number> {
    const { db } = this.ctx;
    let after: AfterCommit | undefined;
    const n = await db.kysely.transaction().execute(async (trx) => {
      const cursor = await db.ops
        .forUpdateSkipLocked(
          trx.selectFrom('event_consumers').select('last_seq').where('name', '=', r.consumer.name),
        )
        .executeTakeFirst();
      if (!cursor) return LOCKED;
      const { events, last } = await this.read(trx, r, Number(cursor.last_seq), size);
      if (last === null) return 0;
      if (events.length > 0) after = (await r.consumer.handle(trx, events)) ?? undefined;
      await trx
        .updateTable('event_consumers')
        .set({ last_seq: last, updated_at: now() })
        .where('name', '=', r.consumer.name)
        .execute();
      return events.length;
    });
    if (after) {
      try {
        await after();
      } catch (err) {
        this.ctx.log.warn({ err, consumer: r.consumer.name }, 'after-commit work of a consumer failed');
      }
    }
    return n;
  }

  /**
   * The next batch after the cursor `from`: at most `size` events of the consumer's types, and the
   * number the cursor moves to (null: nothing new). The database skips the other types: thousands of
   * `unit.counters` of device readings between two service events are passed over in one statement,
   * not read and parsed a hundred at a time. Their cursor goes to the last published number
   * read before the events: numbers are given under one lock in increasing order (events/outbox.ts), so
   * every event up to it is visible to the second statement, and none of them of a wanted type is
   * skipped.
   */
  private async read(
    trx: Kysely<Database>,
    r: Runner,
    from: number,
    size: number,
  ): Promise<{ events: PublishedDomainEvent[]; last: number | null }> {
    const order = orderColumn(this.ctx);
    const query = trx
      .selectFrom('domain_events')
      .select([`${order} as n`, 'payload'])
      .where(order, '>', from)
      .orderBy(order)
      .limit(size);
    if (r.types === undefined) {
      const events = toPublished(await query.execute());
      return { events, last: events.at(-1)?.seq ?? null };
    }
    const top = await trx
      .selectFrom('domain_events')
      .select((eb) => eb.fn.max(order).as('hi'))
      .executeTakeFirst();
    const hi = top?.hi === null || top?.hi === undefined ? null : Number(top.hi);
    if (hi === null || hi <= from) return { events: [], last: null };
    const events = toPublished(await query.where(order, '<=', hi).where('type', 'in', r.types).execute());
    // A full batch may have more after it: the cursor stops at its last event.
    return { events, last: events.length === size ? events[size - 1]!.seq : hi };
  }

  /** Stops retries and waits for the runs in flight. */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    for (const r of this.runners.values()) clearTimeout(r.retry);
    await Promise.all([...this.runners.values()].map((r) => r.queued ?? r.running));
  }
}
