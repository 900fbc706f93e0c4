import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { orderColumn, recordDomainEvents } from '../events/outbox.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import {
  DELIVERY_LOG_DAYS,
  DOMAIN_EVENT_DAYS,
  INGEST_LOG_DAYS,
  pruneDeliveries,
  pruneDomainEvents,
  pruneIngestLog,
} from './retention.js';

describe('ingest log retention', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it(`deletes rows older than ${INGEST_LOG_DAYS} days and keeps the rest`, async () => {
    const db = t.server.ctx.db.kysely;
    const t0 = now();
    const row = (age: number) => ({
      received_at: t0 - age,
      device_id: `probe-${age}`,
      unit_id: null,
      msg_time: null,
      reason: 'Unknown device',
      payload: '{}',
    });
    await db
      .insertInto('ingest_log')
      .values([row(INGEST_LOG_DAYS * 86400 + 10), row(INGEST_LOG_DAYS * 86400 - 10), row(5)])
      .execute();
    expect(await pruneIngestLog(t.server.ctx, t0)).toBe(1);
    const left = await db
      .selectFrom('ingest_log')
      .select('device_id')
      .where('device_id', 'like', 'probe-%')
      .execute();
    expect(left.map((r) => r.device_id).sort()).toEqual([`probe-${INGEST_LOG_DAYS * 86400 - 10}`, 'probe-5']);
    expect(await pruneIngestLog(t.server.ctx, t0)).toBe(0);
  });
});

describe('domain event retention', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ demo: false });
  });
  afterAll(() => t.close());

  it(`deletes events older than ${DOMAIN_EVENT_DAYS} days once published and handled by every consumer`, async () => {
    const ctx = t.server.ctx;
    const db = ctx.db.kysely;
    const t0 = now();
    const old = t0 - DOMAIN_EVENT_DAYS * 86400 - 10;
    const record = async (name: string, createdAt: number) => {
      await db
        .transaction()
        .execute((trx) =>
          recordDomainEvents(trx, [
            { type: 'fleet.settings', fid: 1, at: createdAt, by: null, changed: [name] },
          ]),
        );
      await db
        .updateTable('domain_events')
        .set({ created_at: createdAt })
        .where('at', '=', createdAt)
        .execute();
    };
    await record('n', old);
    await record('tz', old + 1);
    await ctx.outbox.publishPending();
    // Committed, not yet published on PostgreSQL (numbered at publication): kept until then.
    await record('ms', old + 2);
    await record('cur', t0);
    const order = orderColumn(ctx);
    const first = await db
      .selectFrom('domain_events')
      .select(['id', 'seq'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const left = async () =>
      (await db.selectFrom('domain_events').select('payload').orderBy('id').execute()).map(
        (r) => JSON.parse(r.payload).changed[0],
      );
    // A consumer that has handled the first event only keeps the others.
    const firstNumber = Number(order === 'id' ? first.id : first.seq);
    await db
      .insertInto('event_consumers')
      .values({ name: 'slow', last_seq: firstNumber, updated_at: t0 })
      .execute();
    await db.insertInto('event_consumers').values({ name: 'fast', last_seq: 1e12, updated_at: t0 }).execute();
    // The server's own consumers (in-app notifications) are fast ones too: done with their runs, past all.
    await ctx.outbox.consumers.drainAll();
    await db.updateTable('event_consumers').set({ last_seq: 1e12 }).where('name', '!=', 'slow').execute();
    expect(await pruneDomainEvents(ctx, t0)).toBe(1);
    expect(await left()).toEqual(['tz', 'ms', 'cur']);
    await db.updateTable('event_consumers').set({ last_seq: 1e12 }).where('name', '=', 'slow').execute();
    await pruneDomainEvents(ctx, t0);
    expect(await left()).toEqual(order === 'seq' ? ['ms', 'cur'] : ['cur']);
    expect(await pruneDomainEvents(ctx, t0)).toBe(0);
    await ctx.outbox.publishPending();
    await pruneDomainEvents(ctx, t0);
    expect(await left()).toEqual(['cur']);
  });
});

describe('delivery log retention', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it(`deletes sent and failed deliveries older than ${DELIVERY_LOG_DAYS} days; pending ones stay`, async () => {
    const ctx = t.server.ctx;
    const db = ctx.db.kysely;
    const t0 = now();
    const fid = t.demo.fleetId;
    const old = t0 - DELIVERY_LOG_DAYS * 86400 - 10;
    const row = (name: string, createdAt: number, status: string, test = 0) => ({
      fleet_id: fid,
      channel: 'webhook',
      setup_id: 1,
      setup_name: name,
      event_id: `ev-${name}`,
      kind: 1,
      service_id: null,
      snapshot: '{}',
      status,
      attempts: 1,
      next_at: status === 'pending' ? t0 + 60 : null,
      last_at: createdAt,
      error: status === 'failed' ? 'HTTP 500' : null,
      created_at: createdAt,
      recipient: '',
      test,
    });
    // In id order with growing times, as the consumer writes them.
    await db
      .insertInto('notification_deliveries')
      .values([
        row('old-sent', old, 'sent'),
        row('old-failed', old + 1, 'failed'),
        row('old-test', old + 2, 'sent', 1),
        row('old-pending', old + 3, 'pending'),
        row('edge', t0 - DELIVERY_LOG_DAYS * 86400 + 10, 'sent'),
        row('new-failed', t0 - 5, 'failed'),
      ])
      .execute();
    const left = async () =>
      (await db.selectFrom('notification_deliveries').select('setup_name').orderBy('id').execute()).map(
        (r) => r.setup_name,
      );
    expect(await pruneDeliveries(ctx, t0)).toBe(3);
    expect(await left()).toEqual(['old-pending', 'edge', 'new-failed']);
    expect(await pruneDeliveries(ctx, t0)).toBe(0);
    // Settled later, the old pending one goes too.
    await db
      .updateTable('notification_deliveries')
      .set({ status: 'sent' })
      .where('setup_name', '=', 'old-pending')
      .execute();
    expect(await pruneDeliveries(ctx, t0)).toBe(1);
    expect(await left()).toEqual(['edge', 'new-failed']);
  });
});
