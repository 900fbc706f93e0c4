import type { LiveEvent } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import type { Database } from '../db/schema.js';
import { assign, createInterval, setCounters } from '../test/engine-fixtures.js';
import { EventsClient } from '../test/events-client.js';
import {
  accountOf,
  type Client,
  createUnit,
  startTestServer,
  TEST_DB,
  type TestServer,
} from '../test/harness.js';
import { recompute } from './index.js';

/**
 * The engine's live events are built from what it wrote (engine/create.ts: the new rows and the line
 * items it copied, never read back): each event must equal the service as the API reads it back at once,
 * line items, their total and the owner's counters included.
 */
describe(`engine live events on ${TEST_DB}`, () => {
  let t: TestServer;
  let db: Kysely<Database>;
  let fleetId: number;
  let manager: Client;
  let socket: EventsClient;

  beforeAll(async () => {
    t = await startTestServer();
    db = t.server.ctx.db.kysely;
    fleetId = t.demo.fleetId;
    manager = await t.login('manager');
    socket = await EventsClient.connect(t.url, manager.ssid);
  });
  afterAll(async () => {
    socket?.close();
    await t?.close();
  });

  /** The service events of one run, in order; a marker published after them says all are in. */
  async function eventsOf(run: () => Promise<unknown>): Promise<LiveEvent[]> {
    const from = socket.received.length;
    await run();
    const marker = -Math.floor(Math.random() * 1e9) - 1;
    await t.server.ctx.bus.publish({ t: 'u', s: 'service', fid: fleetId, d: { id: marker } });
    await socket.next((e) => e.s === 'service' && (e.d as { id: number }).id === marker);
    return socket.received
      .slice(from)
      .filter((e) => e.s === 'service' && e.fid === fleetId && (e.d as { id: number }).id !== marker);
  }

  async function expectAsReadBack(events: LiveEvent[]) {
    for (const e of events) {
      const id = (e.d as { id: number }).id;
      const res = await manager.get(`/api/fleets/${fleetId}/services/${id}`);
      expect(res.status).toBe(200);
      expect(e.d).toEqual(res.body);
    }
  }

  it('a created service’s event equals its read-back, with or without line items; so does a change', async () => {
    const accountId = await accountOf(t, 'manager');
    const at = now();
    const priced = await createInterval(db, fleetId, 'Events priced', { cnme: 1, cnmd: 10000, cnmo: 500 }, [
      { name: 'Filter', kind: 2, qty: 1250, cost: 12345 },
      { name: 'Labour', kind: 1, qty: 333, cost: 40001 },
      { name: 'Seal', kind: 2, qty: 3000, cost: 999 },
    ]);
    const bare = await createInterval(db, fleetId, 'Events bare', { cnehe: 1, cnehd: 250, cneho: 10 });
    const units: number[] = [];
    for (let i = 0; i < 4; i++) {
      const unit = await createUnit(t, { accountId, fleetId, name: `events unit ${i}`, mileage: 19600 + i });
      units.push(unit);
      await assign(db, { fleetId, intervalId: priced, type: 'u', id: unit, lcnm: 10000, lceh: 0, ltm: at });
      await assign(db, { fleetId, intervalId: bare, type: 'u', id: unit, lcnm: 0, lceh: 100 - 250, ltm: at });
    }
    const created = await eventsOf(() => recompute(t.server.ctx, { fleetId }, at));
    expect(created.map((e) => e.t)).toEqual(Array(8).fill('c'));
    expect(created.filter((e) => (e.d as { li: unknown[] }).li.length === 3)).toHaveLength(4);
    await expectAsReadBack(created);

    // Past the limit: the Due services of the priced interval become overdue (`u`, lines read back).
    for (const unit of units) await setCounters(db, unit, 20100, 100);
    const changed = await eventsOf(() =>
      recompute(t.server.ctx, { objects: units.map((id) => ({ type: 'u' as const, id })) }, at),
    );
    expect(changed.map((e) => e.t)).toEqual(Array(4).fill('u'));
    await expectAsReadBack(changed);
  });

  it('a whole-fleet run with more work than one read by ids creates each Due service once, one event each', async () => {
    // More assignments with work than CHUNK (2,000): on PostgreSQL the plan under the lock is the fleet's
    // own read again (apply.ts `replanScope`), not the ids in chunks.
    const accountId = await accountOf(t, 'manager');
    const at = now();
    const fleet = await db
      .insertInto('fleets')
      .values({
        account_id: accountId,
        name: 'Engine bulk fleet',
        tz: 0,
        cur: 'EUR',
        ms: 0,
        fm: 1,
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const intervals: number[] = [];
    for (let i = 0; i < 70; i++)
      intervals.push(await createInterval(db, fleet.id, `Bulk ${i}`, { cnme: 1, cnmd: 1000, cnmo: 100 }));
    const units: number[] = [];
    for (let i = 0; i < 31; i++)
      units.push(
        await createUnit(t, { accountId, fleetId: fleet.id, name: `bulk fleet unit ${i}`, mileage: 5000 }),
      );
    const rows = units.flatMap((unit) =>
      intervals.map((intervalId) => ({
        fleet_id: fleet.id,
        interval_id: intervalId,
        object_type: 'u',
        object_id: unit,
        lcnm: 4000,
        lceh: 0,
        ltm: at,
        cnt: 0,
        created_at: at,
      })),
    );
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('assignments')
        .values(rows.slice(i, i + 500))
        .execute();
    const sent: LiveEvent[] = [];
    const stop = t.server.ctx.bus.subscribe((e) => {
      if (e.s === 'service' && e.fid === fleet.id) sent.push(e);
    });
    try {
      expect(await recompute(t.server.ctx, { fleetId: fleet.id }, at)).toEqual({ created: 2170, changed: 0 });
      expect(await recompute(t.server.ctx, { fleetId: fleet.id }, at)).toEqual({ created: 0, changed: 0 });
      const open = await db
        .selectFrom('services')
        .select(['id', 'assignment_id'])
        .where('fleet_id', '=', fleet.id)
        .execute();
      expect(open).toHaveLength(2170);
      expect(new Set(open.map((s) => s.assignment_id)).size).toBe(2170);
      await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(2170);
      expect(sent.map((e) => (e.d as { id: number }).id).sort((a, b) => a - b)).toEqual(
        open.map((s) => s.id).sort((a, b) => a - b),
      );
    } finally {
      stop();
    }
  });
});
