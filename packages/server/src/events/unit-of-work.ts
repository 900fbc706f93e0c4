import type { Collection, LiveEvent, NewDomainEvent } from '@fleetkeep/core';
import type { Transaction } from 'kysely';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { turn } from '../db/yield.js';
import { recordDomainEvents, recordDomainEventsBulk } from './outbox.js';

/**
 * One unit of work (DESIGN §6 "Events"): a write opens its transaction here, records its domain events
 * in the outbox inside that transaction and queues its live events; after the commit the live events go
 * to the bus in the order they were queued, then the outbox is published. A rollback takes the outbox
 * rows with it and publishes nothing. This module is the only caller of `ctx.bus.publish*` and
 * `ctx.outbox.publish` outside the bus and the outbox themselves.
 */

/** Live events per `publishMany` (one statement on PostgreSQL), with a turn of the event loop between. */
const PUBLISH_PART = 500;

/** Work done once the write is committed and visible (reads of wires, the status engine). */
type AfterCommit = () => Promise<LiveEvent[] | undefined> | Promise<void>;

export class UnitOfWork {
  private readonly steps: (LiveEvent[] | AfterCommit)[] = [];
  /** Which domain-event types the commit recorded: none, some (named) or unknown ones. */
  private outbox: 'none' | 'unknown' | Set<string> = 'none';

  constructor(readonly trx: Transaction<Database>) {}

  /** Writes domain events into the outbox, inside this transaction (nothing when there are none). */
  async record(events: NewDomainEvent[], bulk?: { placeholder: (k: number) => string }): Promise<void> {
    if (events.length === 0) return;
    if (bulk) await recordDomainEventsBulk(this.trx, events, bulk.placeholder);
    else await recordDomainEvents(this.trx, events);
    this.recorded();
  }

  /**
   * The write recorded domain events through a helper handed the transaction (or may have): the outbox
   * is published after the commit. `types`, when known, lets the outbox skip a wake-up that no consumer
   * wants (events/outbox.ts `publish`).
   */
  recorded(types?: Iterable<string>): void {
    if (types === undefined || this.outbox === 'unknown') {
      this.outbox = 'unknown';
      return;
    }
    if (this.outbox === 'none') this.outbox = new Set();
    for (const t of types) this.outbox.add(t);
  }

  /** Queues live events; they are published after the commit, in order. */
  emit(...events: LiveEvent[]): void {
    if (events.length) this.steps.push(events);
  }

  /**
   * Runs `step` after the commit, in its place among the queued events, and publishes the events it
   * returns there: for events whose payload is read once the write is visible.
   */
  afterCommit(step: AfterCommit): void {
    this.steps.push(step);
  }

  /**
   * Queues the live event of one record of a fleet written in this work: a deletion (`d`, its id) at
   * once; a creation or change (`c`, `u`) after the commit with the record's wire as committed, read by
   * `wireOf` (what a GET returns), and nothing when it is gone by then.
   */
  emitRecord(
    s: Collection,
    fid: number,
    id: number,
    t: 'c' | 'u' | 'd',
    wireOf: () => Promise<unknown | undefined>,
  ): void {
    if (t === 'd') {
      this.emit({ t, s, fid, d: { id } });
      return;
    }
    this.afterCommit(async () => {
      const d = await wireOf();
      return d === undefined ? [] : [{ t, s, fid, d }];
    });
  }

  /** After the commit: the queued events and steps in order, then the outbox (also when a step fails). */
  async committed(ctx: AppContext): Promise<void> {
    try {
      for (const step of this.steps) {
        const events = typeof step === 'function' ? await step() : step;
        if (events) await announce(ctx, events);
      }
    } finally {
      if (this.outbox === 'unknown') ctx.outbox.publish();
      else if (this.outbox !== 'none') ctx.outbox.publish(this.outbox);
    }
  }
}

/**
 * Runs `write` in one transaction on `ctx.db` and, once it committed, publishes what it queued and
 * recorded. Throws what the transaction throws, with nothing published.
 */
export async function unitOfWork<T>(
  ctx: AppContext,
  write: (trx: Transaction<Database>, uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  let uow: UnitOfWork | undefined;
  const result = await ctx.db.kysely.transaction().execute(async (trx) => {
    uow = new UnitOfWork(trx);
    return write(trx, uow);
  });
  await uow?.committed(ctx);
  return result;
}

/**
 * Live events of no write of this process's own: a consumer forwarding a committed domain event, a
 * unit's position, an import's progress. Published at once, in order.
 */
export async function announce(ctx: AppContext, events: LiveEvent | readonly LiveEvent[]): Promise<void> {
  const list = Array.isArray(events) ? events : [events as LiveEvent];
  for (let i = 0; i < list.length; i += PUBLISH_PART) {
    if (i > 0) await turn();
    await ctx.bus.publishMany(list.slice(i, i + PUBLISH_PART));
  }
}
