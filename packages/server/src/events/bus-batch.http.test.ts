import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LiveEvent } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { recompute } from '../engine/index.js';
import type { Server } from '../server.js';
import { assign, createInterval } from '../test/engine-fixtures.js';
import { EventsClient } from '../test/events-client.js';
import {
  accountOf,
  createUnit,
  listenAnother,
  startTestServer,
  TEST_DB,
  type TestServer,
} from '../test/harness.js';

/** The JSON a socket or another instance receives of an event. */
const wire = (e: LiveEvent) => JSON.parse(JSON.stringify(e)) as LiveEvent;

/**
 * Events published in bulk travel packed, several to a NOTIFY payload (events/pg-bus.ts), and
 * are unpacked by every instance: instance B's listeners and sockets receive exactly the events instance
 * A published, in order, none lost, none doubled. On SQLite (one instance by design, MemoryBus) A is B.
 */
describe(`bulk live events across instances on ${TEST_DB}`, () => {
  let t: TestServer;
  let second: Server | undefined;
  let bUrl: string;
  let bBus: Server['ctx']['bus'];
  let dataDir: string | undefined;

  beforeAll(async () => {
    t = await startTestServer();
    if (TEST_DB === 'postgres') {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-bus-batch-'));
      ({ server: second, url: bUrl } = await listenAnother({ ...t.config, dataDir }));
      bBus = second.ctx.bus;
    } else {
      bUrl = t.url;
      bBus = t.server.ctx.bus;
    }
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Records what A's bus is asked to publish, in call order, while `work` runs. */
  async function published(work: () => Promise<unknown>): Promise<LiveEvent[]> {
    const bus = t.server.ctx.bus;
    const sent: LiveEvent[] = [];
    const original = bus.publishMany;
    bus.publishMany = async (events) => {
      sent.push(...events);
      return original.call(bus, events);
    };
    try {
      await work();
    } finally {
      bus.publishMany = original;
    }
    return sent;
  }

  it('an engine run creating many services through A reaches B’s socket as the same events', async () => {
    const db = t.server.ctx.db.kysely;
    const fleetId = t.demo.fleetId;
    const accountId = await accountOf(t, 'manager');
    const at = now();
    const lines = [
      { name: 'Filter', kind: 2, qty: 1000, cost: 12500 },
      { name: 'Labour ünd Öl', kind: 1, qty: 1500, cost: 40000 },
    ];
    const intervals = [];
    for (const name of ['Bulk oil', 'Bulk tyres', 'Bulk inspection'])
      intervals.push(await createInterval(db, fleetId, name, { cnme: 1, cnmd: 10000, cnmo: 500 }, lines));
    for (let i = 0; i < 25; i++) {
      const unit = await createUnit(t, { accountId, fleetId, name: `bulk unit ${i}`, mileage: 20000 + i });
      for (const intervalId of intervals)
        await assign(db, { fleetId, intervalId, type: 'u', id: unit, lcnm: 10000, lceh: 0, ltm: at });
    }
    const manager = await t.login('manager');
    const socket = await EventsClient.connect(bUrl, manager.ssid);
    try {
      const all = await published(async () => {
        expect(await recompute(t.server.ctx, { fleetId }, at)).toMatchObject({ created: 75 });
      });
      // The outbox consumers' own events (notifications of the new Due services) may go out meanwhile.
      const sent = all.filter((e) => e.s === 'service');
      expect(sent).toHaveLength(75);
      // More than one payload's worth (7,000 bytes each), so that several packs travel.
      expect(Buffer.byteLength(JSON.stringify(sent))).toBeGreaterThan(3 * 7000);
      // A last event after them: once it is in, everything before it has arrived.
      await t.server.ctx.bus.publish({ t: 'u', s: 'service', fid: fleetId, d: { id: -1 } });
      await socket.next((e) => e.s === 'service' && (e.d as { id: number }).id === -1);
      const received = socket.received.filter((e) => e.s === 'service' && (e.d as { id: number }).id !== -1);
      expect(received).toEqual(sent.map(wire));
      expect(new Set(received.map((e) => (e.d as { id: number }).id)).size).toBe(75);
    } finally {
      socket.close();
    }
  });

  it('B’s listeners receive a long mixed batch in order: packed, lone and parked events', async () => {
    // Sizes around the payload limit, multi-byte text (bytes, not characters, count) and two events
    // too large for any payload, which are parked in their place.
    const events: LiveEvent[] = Array.from({ length: 160 }, (_, n) => ({
      t: 'u',
      s: 'fleet',
      fid: 1,
      d: { probe: 'batch', n, text: (n % 7 === 0 ? 'ü' : 'x').repeat((n * 397) % 3600) },
    }));
    events.splice(40, 0, {
      t: 'u',
      s: 'fleet',
      fid: 1,
      d: { probe: 'batch', n: -1, text: 'y'.repeat(9000) },
    });
    events.splice(41, 0, {
      t: 'u',
      s: 'fleet',
      fid: 1,
      d: { probe: 'batch', n: -2, text: 'ß'.repeat(3600) },
    });
    const got: LiveEvent[] = [];
    const stop = bBus.subscribe((e) => {
      if ((e.d as { probe?: string }).probe === 'batch') got.push(e);
    });
    try {
      await t.server.ctx.bus.publishMany(events);
      await t.server.ctx.bus.publish({ t: 'u', s: 'fleet', fid: 1, d: { probe: 'batch', n: 'end' } });
      await expect.poll(() => got.at(-1)?.d, { timeout: 10_000 }).toEqual({ probe: 'batch', n: 'end' });
      expect(got.slice(0, -1)).toEqual(events.map(wire));
    } finally {
      stop();
    }
  });
});
