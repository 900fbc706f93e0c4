import { randomUUID } from 'node:crypto';
import type { DomainEvent, NewDomainEvent } from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import { type AppContext, now } from '../context.js';
import { bulkInsert, type Placeholder } from '../db/bulk.js';
import type { Database } from '../db/schema.js';
import { Consumers, type DomainEventConsumer, OUTBOX_TOPIC } from './consumers.js';

export {
  type DomainEventConsumer,
  OUTBOX_TOPIC,
  orderColumn,
  type PublishedDomainEvent,
} from './consumers.js';

/**
 * The domain-event outbox (DESIGN §6).
 *
 * 1. Record: a writer calls `recordDomainEvents(trx, …)` inside its transaction, so the events exist
 *    exactly when the change does (a rollback takes both). Each gets a UUID, its stable id.
 * 2. Publish: after the commit the writer's unit of work (events/unit-of-work.ts) calls
 *    `ctx.outbox.publish()`. Consumers read in publication
 *    order, where a reader that has seen number n has seen every smaller one. On PostgreSQL, where
 *    concurrent writers commit out of id order, one publisher at a time (an advisory lock) gives the
 *    committed, unnumbered rows increasing `seq` numbers. On SQLite one transaction writes at a time, so
 *    rows become visible in id order and the id is the number: nothing to do at publication
 *    (db/dialect `serialWriters`). Then the bus wakes the consumers of every instance.
 * 3. Consume (events/consumers.ts): each consumer's cursor row is locked while a batch is handled and
 *    advanced in the same transaction as the consumer's writes: every event once per consumer name,
 *    however many instances run it, across restarts.
 * 4. Sweep: at start-up and on a timer, rows committed but never numbered (the process died between
 *    commit and publish, or the writer left them to it: `publish(recorded)`) are published, and every
 *    consumer catches up (a wake-up may have been lost).
 */

/** Rows per insert: 9 columns each stays well under both dialects' bound-parameter limits. */
const INSERT_ROWS = 500;

/**
 * Writes events into the outbox inside the caller's transaction (nothing when there are none). They
 * reach consumers after the commit and `ctx.outbox.publish()`, or at the latest with the next sweep.
 */
export async function recordDomainEvents(trx: Kysely<Database>, events: NewDomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const t = now();
  const rows = events.map((e) => {
    const event = { id: randomUUID(), ...e } as DomainEvent;
    return {
      event_id: event.id,
      seq: null,
      type: event.type,
      fleet_id: event.fid,
      at: event.at,
      created_at: t,
      published_at: null,
      payload: JSON.stringify(event),
    };
  });
  for (let i = 0; i < rows.length; i += INSERT_ROWS)
    await trx
      .insertInto('domain_events')
      .values(rows.slice(i, i + INSERT_ROWS))
      .execute();
}

/** The columns a bulk record binds per event (`seq` and `published_at` stay null). */
export const DOMAIN_EVENT_COLUMNS = ['event_id', 'type', 'fleet_id', 'at', 'created_at', 'payload'] as const;

/** Outbox rows of new events, values in `DOMAIN_EVENT_COLUMNS` order (each event gets its UUID here). */
export function domainEventRows(events: NewDomainEvent[], t: number = now()): unknown[][] {
  return events.map((e) => {
    const event = { id: randomUUID(), ...e } as DomainEvent;
    return [event.id, event.type, event.fid, event.at, t, JSON.stringify(event)];
  });
}

/**
 * The same as `recordDomainEvents` for writers that record thousands of events at once (the status
 * engine's first run over a fleet): db/bulk.ts multi-row inserts, one prepared statement for
 * every full chunk. `placeholder` is the dialect's (db/dialect `placeholder`: `?` or `$k`).
 */
export async function recordDomainEventsBulk(
  trx: Kysely<Database>,
  events: NewDomainEvent[],
  placeholder: Placeholder,
): Promise<void> {
  if (events.length === 0) return;
  await bulkInsert(
    trx,
    placeholder,
    { table: 'domain_events', columns: DOMAIN_EVENT_COLUMNS },
    domainEventRows(events),
  );
}

/**
 * PostgreSQL: numbers the committed, unpublished events in one short transaction, under the publisher
 * lock. New numbers start above every number given so far and keep the id order among the rows
 * numbered together: `seq = id + offset` for the rows from the smallest pending id up (a row with a
 * smaller id that commits meanwhile waits for the next run, so no number is ever below one already
 * visible). Returns how many rows it numbered; on SQLite, where the id is the number, -1 (unknown).
 */
export async function numberPending(ctx: AppContext): Promise<number> {
  if (ctx.db.ops.serialWriters) return -1;
  return ctx.db.kysely.transaction().execute(async (trx) => {
    await ctx.db.ops.lockInTransaction(trx, 'outboxPublish');
    const pending = await trx
      .selectFrom('domain_events')
      .select((eb) => eb.fn.min('id').as('lo'))
      .where('seq', 'is', null)
      .executeTakeFirst();
    if (pending?.lo === null || pending?.lo === undefined) return 0;
    const lo = Number(pending.lo);
    const top = await trx
      .selectFrom('domain_events')
      .select((eb) => eb.fn.max('seq').as('hi'))
      .executeTakeFirst();
    const offset = Number(top?.hi ?? 0) + 1 - lo;
    const res = await trx
      .updateTable('domain_events')
      .set({ seq: sql<number>`id + cast(${offset} as bigint)`, published_at: now() })
      .where('seq', 'is', null)
      .where('id', '>=', lo)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  });
}

export interface OutboxTimerOptions {
  /** Sweep period; the default suits production (a lost wake-up costs at most this delay). */
  everyMs?: number;
}

const SWEEP_EVERY_MS = 10_000;

/** The outbox of one server: publishing after commits, the consumers, the sweep. `ctx.outbox`. */
export class Outbox {
  /**
   * False leaves publishing to the sweep, as if every writer died right after its commit (tests of
   * that case; nothing else turns it off).
   */
  autoPublish = true;
  readonly consumers: Consumers;
  private publishing: Promise<void> | null = null;
  private publishAgain = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: AppContext) {
    this.consumers = new Consumers(ctx);
  }

  /**
   * Call after a commit that recorded events: they are numbered and the consumers woken soon. Never
   * throws and need not be awaited; publishes coalesce (one run at a time, plus one more if called
   * meanwhile); a failure is logged and the sweep retries.
   *
   * `recorded`, when the writer knows it, names the types the commit recorded: if no consumer of this
   * instance wants any of them (a device reading's `unit.counters`, which notifications and channels
   * pass over), there is nothing to wake anyone for, and the rows are numbered by the next publication
   * or the sweep (on PostgreSQL the numbering transaction, the wake-up and two consumer
   * transactions per group commit were half the statements of a reading). Consumers see them in order
   * all the same; one that wants them waits at most a sweep period.
   */
  publish(recorded?: Iterable<string>): void {
    if (!this.autoPublish || this.closed) return;
    if (recorded !== undefined && !this.consumers.wantsAny(recorded)) return;
    if (this.publishing) {
      this.publishAgain = true;
      return;
    }
    this.publishing = this.publishPending()
      .then(() => undefined)
      .catch((err) => this.ctx.log.warn({ err }, 'domain events not published yet (the sweep retries)'))
      .finally(() => {
        this.publishing = null;
        if (this.publishAgain) {
          this.publishAgain = false;
          this.publish();
        }
      });
  }

  /** Numbers what is committed and unpublished and wakes the consumers of every instance. */
  async publishPending(): Promise<number> {
    const n = await numberPending(this.ctx);
    if (n !== 0) await this.ctx.bus.wake(OUTBOX_TOPIC);
    return n;
  }

  /** Registers a consumer on this instance (see events/consumers.ts); returns the unregister function. */
  register(consumer: DomainEventConsumer): () => void {
    return this.consumers.register(consumer);
  }

  /** Publishes what a dead writer left behind, then lets every consumer of this instance catch up. */
  async sweep(): Promise<void> {
    if (this.closed) return;
    try {
      await this.publishPending();
    } catch (err) {
      this.ctx.log.warn({ err }, 'domain event sweep could not publish');
    }
    await this.consumers.drainAll();
  }

  /** Sweeps at start and then periodically (main.ts, beside the status engine's timer). */
  start(options: OutboxTimerOptions = {}): { stop(): void } {
    let running = false;
    const run = () => {
      if (running || this.closed) return;
      running = true;
      void this.sweep().finally(() => {
        running = false;
      });
    };
    run();
    this.timer = setInterval(run, options.everyMs ?? SWEEP_EVERY_MS);
    this.timer.unref();
    return { stop: () => clearInterval(this.timer) };
  }

  /** Stops the timer and waits for the runs in flight (server.close, before the bus and database). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.publishing;
    await this.consumers.close();
  }
}
