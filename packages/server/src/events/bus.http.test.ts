import type { LiveEvent } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_DB, type TestServer } from '../test/harness.js';

/** The bus of the server under test: in-process on SQLite, LISTEN/NOTIFY on PostgreSQL (DESIGN §6). */
describe(`event bus on ${TEST_DB}`, () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ demo: false });
  });
  afterAll(() => t.close());

  it('delivers a batch in order, a payload too large for NOTIFY included', async () => {
    const bus = t.server.ctx.bus;
    const got: LiveEvent[] = [];
    const all = new Promise<void>((resolve) => {
      const stop = bus.subscribe((e) => {
        if ((e.d as { probe?: boolean }).probe !== true) return;
        got.push(e);
        if (got.length === 4) {
          stop();
          resolve();
        }
      });
    });
    const big = 'x'.repeat(20_000);
    await bus.publishMany([
      { t: 'u', s: 'fleet', fid: 1, d: { probe: true, n: 1 } },
      { t: 'u', s: 'fleet', fid: 1, d: { probe: true, n: 2 } },
      { t: 'u', s: 'fleet', fid: 1, d: { probe: true, n: 3, big } },
      { t: 'u', s: 'fleet', fid: 1, d: { probe: true, n: 4 } },
    ]);
    await all;
    expect(got.map((e) => (e.d as { n: number }).n)).toEqual([1, 2, 3, 4]);
    expect((got[2]!.d as { big: string }).big).toHaveLength(20_000);
  });

  it('wakes the listeners of a topic, apart from the events (the outbox, events/outbox.ts)', async () => {
    const bus = t.server.ctx.bus;
    const events: LiveEvent[] = [];
    const stopEvents = bus.subscribe((e) => events.push(e));
    const woken: string[] = [];
    const stops = ['outbox', 'other'].map((topic) => bus.onWake(topic, () => woken.push(topic)));
    await bus.wake('outbox');
    await expect.poll(() => woken, { timeout: 5000 }).toEqual(['outbox']);
    for (const stop of stops) stop();
    await bus.wake('outbox');
    await bus.publish({ t: 'u', s: 'fleet', fid: 1, d: { probe: 'after' } });
    await expect.poll(() => events.length, { timeout: 5000 }).toBe(1);
    stopEvents();
    expect(woken).toEqual(['outbox']);
  });
});
