import { type Kysely, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import type { Database } from '../db/schema.js';
import { createServer, type Server } from '../server.js';
import { Client, startTestServer, TEST_DB, type TestServer } from '../test/harness.js';
import { servicesFixture } from '../test/services-fixtures.js';
import { type DomainEventConsumer, type PublishedDomainEvent, recordDomainEvents } from './outbox.js';

/**
 * Delivery of domain events (events/outbox.ts, consumers.ts): every event reaches each consumer once,
 * after commit, across a restart, when the writer died between its commit and the publication, and
 * with two instances on one PostgreSQL.
 */

/** The test consumers' own table: one row per handled event, written in the consumer's transaction. */
async function createHandledTable(db: Kysely<Database>) {
  await sql`create table test_handled (consumer text not null, event_id text not null, seq bigint not null, instance text not null)`.execute(
    db,
  );
}

async function handled(db: Kysely<Database>, consumer: string) {
  const res = await sql<{ event_id: string; seq: number }>`select event_id, seq from test_handled
    where consumer = ${consumer} order by seq`.execute(db);
  return res.rows.map((r) => ({ id: r.event_id, seq: Number(r.seq) }));
}

/**
 * Every event of the outbox in recording order, with its publication number: `seq` on PostgreSQL (null
 * until published), the id on SQLite (rows become visible in id order there; events/outbox.ts).
 */
async function outbox(db: Kysely<Database>) {
  const rows = await db.selectFrom('domain_events').select(['id', 'event_id', 'seq']).orderBy('id').execute();
  return rows.map((r) => ({ event_id: r.event_id, seq: TEST_DB === 'postgres' ? r.seq : r.id }));
}

/** A consumer that records each event it handles in `test_handled`, tagged with the instance. */
function recorder(
  name: string,
  instance: string,
  options: Partial<DomainEventConsumer> & { seen?: PublishedDomainEvent[] } = {},
): DomainEventConsumer {
  return {
    name,
    start: 'earliest',
    ...options,
    async handle(trx, events) {
      options.seen?.push(...events);
      for (const e of events)
        await sql`insert into test_handled (consumer, event_id, seq, instance)
          values (${name}, ${e.id}, ${e.seq}, ${instance})`.execute(trx);
      await options.handle?.(trx, events);
    },
  };
}

/** Waits until the consumer has handled `count` events, then checks each outbox event once, in order. */
async function expectHandledOnce(db: Kysely<Database>, consumer: string, count: number) {
  await expect.poll(async () => (await handled(db, consumer)).length, { timeout: 10_000 }).toBe(count);
  const rows = await outbox(db);
  expect(rows.every((r) => r.seq !== null)).toBe(true);
  const expected = rows
    .map((r) => ({ id: r.event_id, seq: Number(r.seq) }))
    .sort((a, b) => a.seq - b.seq)
    .slice(-count);
  expect(await handled(db, consumer)).toEqual(expected);
}

describe('domain event delivery', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let uid: number;
  const extra: Server[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    uid = await fx.unit();
    await createHandledTable(fx.db);
  });
  afterEach(async () => {
    for (const s of extra.splice(0)) await s.close();
  });
  afterAll(() => t?.close());

  const createServices = async (n: number, client: Client = manager) => {
    for (let i = 0; i < n; i++) {
      const res = await client.post(fx.base, { n: `Delivered ${i}`, t: 'u', uid, f: 2 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  };

  it('a consumer gets every published event once, in order, its writes committed with its cursor', async () => {
    const seen: PublishedDomainEvent[] = [];
    const stop = t.server.ctx.outbox.register(recorder('in-order', 'a', { seen, batchSize: 2 }));
    try {
      await createServices(3);
      await expectHandledOnce(fx.db, 'in-order', 3);
      expect(seen.map((e) => e.type)).toEqual(['service.created', 'service.created', 'service.created']);
      expect(seen.map((e) => e.seq)).toEqual([...seen.map((e) => e.seq)].sort((a, b) => a - b));
      const cursor = await fx.db
        .selectFrom('event_consumers')
        .select('last_seq')
        .where('name', '=', 'in-order')
        .executeTakeFirstOrThrow();
      expect(Number(cursor.last_seq)).toBe(seen.at(-1)!.seq);
    } finally {
      stop();
    }
  });

  it('a failing batch rolls back with the cursor and comes again; a new consumer may start at the latest', async () => {
    let failed = false;
    const stop = t.server.ctx.outbox.register(
      recorder('fails-once', 'a', {
        async handle() {
          if (failed) return;
          failed = true;
          throw new Error('consumer failure (expected by the test)');
        },
      }),
    );
    const latest = t.server.ctx.outbox.register(recorder('from-latest', 'a', { start: 'latest' }));
    try {
      // Both cursors exist now; the first batch of "fails-once" (the earlier tests' events) failed.
      await t.server.ctx.outbox.consumers.drainAll();
      expect(failed).toBe(true);
      expect(await handled(fx.db, 'fails-once')).toEqual([]);
      const before = (await outbox(fx.db)).length;
      await createServices(1);
      await expect
        .poll(async () => (await handled(fx.db, 'from-latest')).length, { timeout: 10_000 })
        .toBe(1);
      // The failed batch wrote a row before throwing: none stayed, and the sweep offers it again.
      await t.server.ctx.outbox.sweep();
      await expectHandledOnce(fx.db, 'fails-once', before + 1);
    } finally {
      stop();
      latest();
    }
  });

  it('nothing is lost or doubled when the writer dies between commit and publish, or restarts', async () => {
    const consumer = 'after-crash';
    const ctx = t.server.ctx;
    const before = (await outbox(fx.db)).length;
    const stop = ctx.outbox.register(recorder(consumer, 'a'));
    await ctx.outbox.consumers.drainAll();
    // The writer "dies" after each commit: nothing is numbered, no consumer hears of it.
    ctx.outbox.autoPublish = false;
    await createServices(2);
    expect(await handled(fx.db, consumer)).toHaveLength(before);
    if (TEST_DB === 'postgres') {
      const rows = await fx.db.selectFrom('domain_events').select('seq').orderBy('id').execute();
      expect(rows.slice(before).map((r) => r.seq)).toEqual([null, null]);
    }
    await t.server.close();

    // A new process on the same database: its start-up sweep publishes and delivers them, once.
    const second = await createServer(t.config);
    extra.push(second);
    second.ctx.outbox.register(recorder(consumer, 'b'));
    await second.ctx.outbox.sweep();
    await expectHandledOnce(second.ctx.db.kysely, consumer, before + 2);
    await second.close();

    // And another restart: the cursor is where it was, so nothing comes twice; new events still come.
    const third = await createServer(t.config);
    extra.push(third);
    third.ctx.outbox.register(recorder(consumer, 'c'));
    await third.ctx.outbox.sweep();
    const db = third.ctx.db.kysely;
    expect((await handled(db, consumer)).length).toBe(before + 2);
    await db
      .transaction()
      .execute((trx) =>
        recordDomainEvents(trx, [
          { type: 'fleet.settings', fid: fx.fleetId, at: now(), by: null, changed: ['n'] },
        ]),
      );
    third.ctx.outbox.publish();
    await expectHandledOnce(db, consumer, before + 3);
    stop();
  });
});

/**
 * Two instances on one PostgreSQL (each with its own bus, outbox and pool): one consumer name
 * registered on both handles every event once in total, also the ones an instance that died left
 * unpublished. SQLite serves one instance by design (DESIGN §6), so this part runs on PostgreSQL.
 */
if (TEST_DB === 'postgres')
  describe('domain event delivery with two instances on one PostgreSQL', () => {
    let t: TestServer;
    let other: Server;
    let fx: Awaited<ReturnType<typeof servicesFixture>>;

    beforeAll(async () => {
      t = await startTestServer();
      fx = await servicesFixture(t);
      other = await createServer(t.config);
      await other.app.listen({ port: 0, host: '127.0.0.1' });
      await createHandledTable(fx.db);
    });
    afterAll(async () => {
      await other?.close();
      await t?.close();
    });

    it('each event is consumed once in total by a consumer registered on both', async () => {
      const manager = await t.login('manager');
      const address = other.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const onOther = new Client(`http://127.0.0.1:${port}`, manager.ssid);
      // Small batches and a slow handler make the two instances compete for the cursor.
      const slow = { batchSize: 2, handle: () => new Promise<void>((r) => setTimeout(r, 5)) };
      t.server.ctx.outbox.register(recorder('shared', 'a', slow));
      other.ctx.outbox.register(recorder('shared', 'b', slow));
      const uid = await fx.unit();
      const create = (client: Client, i: number) =>
        client.post(fx.base, { n: `Shared ${i}`, t: 'u', uid, f: 2 }).then((r) => expect(r.status).toBe(200));
      await Promise.all(Array.from({ length: 16 }, (_, i) => create(i % 2 ? onOther : manager, i)));
      await expectHandledOnce(fx.db, 'shared', 16);

      // The first instance now dies after its commits; the other's sweep publishes what it left.
      t.server.ctx.outbox.autoPublish = false;
      for (let i = 0; i < 4; i++) await create(manager, 100 + i);
      const unpublished = await fx.db
        .selectFrom('domain_events')
        .select('id')
        .where('seq', 'is', null)
        .execute();
      expect(unpublished).toHaveLength(4);
      await t.server.close();
      await other.ctx.outbox.sweep();
      await expectHandledOnce(other.ctx.db.kysely, 'shared', 20);
      const byInstance = await sql<{ instance: string }>`select instance from test_handled`.execute(
        other.ctx.db.kysely,
      );
      expect(byInstance.rows.filter((r) => r.instance === 'b').length).toBeGreaterThanOrEqual(4);
    });
  });
