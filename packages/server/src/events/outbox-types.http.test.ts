import type { NewDomainEvent } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { now } from '../context.js';
import { startTestServer, TEST_DB, type TestServer } from '../test/harness.js';
import { type DomainEventConsumer, type PublishedDomainEvent, recordDomainEvents } from './outbox.js';

/**
 * Consumers of some types only (events/consumers.ts) and publications no consumer wants
 * (events/outbox.ts `publish(recorded)`): a device reading's `unit.counters` wakes no one and
 * is numbered by the next publication or the sweep; a consumer passes over other types in the database,
 * yet gets each of its own once, in order, and its cursor ends past everything published.
 */
describe('domain events of types no consumer wants', () => {
  let t: TestServer;
  let fleetId: number;

  beforeAll(async () => {
    t = await startTestServer();
    fleetId = t.demo.fleetId;
  });
  afterAll(() => t?.close());

  const counters = (k: number): NewDomainEvent => ({
    type: 'unit.counters',
    fid: fleetId,
    at: now(),
    by: null,
    unitId: 1,
    mileage: k,
    engineHours: 0,
  });
  const settings = (name: string): NewDomainEvent => ({
    type: 'fleet.settings',
    fid: fleetId,
    at: now(),
    by: null,
    changed: [name],
  });
  const record = (events: NewDomainEvent[]) =>
    t.server.ctx.db.kysely.transaction().execute((trx) => recordDomainEvents(trx, events));
  const settingsOnly = (name: string, seen: PublishedDomainEvent[]): DomainEventConsumer => ({
    name,
    types: ['fleet.settings'],
    batchSize: 2,
    async handle(_trx, events) {
      seen.push(...events);
    },
  });
  const cursorOf = async (name: string) =>
    Number(
      (
        await t.server.ctx.db.kysely
          .selectFrom('event_consumers')
          .select('last_seq')
          .where('name', '=', name)
          .executeTakeFirstOrThrow()
      ).last_seq,
    );
  const lastPublished = async () => {
    const column = TEST_DB === 'postgres' ? 'seq' : 'id';
    const row = await t.server.ctx.db.kysely
      .selectFrom('domain_events')
      .select((eb) => eb.fn.max(column).as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('a publication of types no consumer wants wakes no one; the next one, or the sweep, publishes them', async () => {
    const { outbox } = t.server.ctx;
    const seen: PublishedDomainEvent[] = [];
    const stop = outbox.register(settingsOnly('settings-quiet', seen));
    const publishing = vi.spyOn(outbox, 'publishPending');
    try {
      await outbox.consumers.drainAll();
      await record([counters(1), counters(2)]);
      outbox.publish(['unit.counters']);
      outbox.publish([]);
      expect(publishing).not.toHaveBeenCalled();
      if (TEST_DB === 'postgres') {
        const pending = await t.server.ctx.db.kysely
          .selectFrom('domain_events')
          .select('id')
          .where('seq', 'is', null)
          .execute();
        expect(pending).toHaveLength(2);
      }
      // A type a consumer wants is published at once, with the quiet rows before it.
      await record([settings('n')]);
      outbox.publish(['fleet.settings']);
      expect(publishing).toHaveBeenCalledTimes(1);
      await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
      expect(seen[0]).toMatchObject({ type: 'fleet.settings', changed: ['n'] });
      await expect.poll(() => cursorOf('settings-quiet'), { timeout: 10_000 }).toBe(await lastPublished());

      // Quiet rows alone: the sweep numbers them and the cursor moves past them.
      await record([counters(3)]);
      outbox.publish(['unit.counters']);
      expect(publishing).toHaveBeenCalledTimes(1);
      await outbox.sweep();
      const all = await t.server.ctx.db.kysely.selectFrom('domain_events').select('seq').execute();
      if (TEST_DB === 'postgres') expect(all.every((r) => r.seq !== null)).toBe(true);
      expect(await cursorOf('settings-quiet')).toBe(await lastPublished());
      expect(seen).toHaveLength(1);
    } finally {
      publishing.mockRestore();
      stop();
    }
  });

  it('a consumer of some types gets each of its events once, in order, past many of other types', async () => {
    const { outbox } = t.server.ctx;
    const seen: PublishedDomainEvent[] = [];
    const stop = outbox.register(settingsOnly('settings-many', seen));
    try {
      await outbox.consumers.drainAll();
      const events: NewDomainEvent[] = [];
      for (let k = 0; k < 5; k++) {
        for (let j = 0; j < 150; j++) events.push(counters(k * 1000 + j));
        events.push(settings(`s${k}`));
      }
      events.push(counters(99_999));
      await record(events);
      outbox.publish();
      await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(5);
      await expect.poll(() => cursorOf('settings-many'), { timeout: 10_000 }).toBe(await lastPublished());
      expect(seen.map((e) => (e as { changed: string[] }).changed[0])).toEqual([
        's0',
        's1',
        's2',
        's3',
        's4',
      ]);
      expect(seen.map((e) => e.seq)).toEqual([...seen.map((e) => e.seq)].sort((a, b) => a - b));

      // Nothing comes twice: another run finds nothing new.
      await outbox.sweep();
      expect(seen).toHaveLength(5);
    } finally {
      stop();
    }
  });
});
