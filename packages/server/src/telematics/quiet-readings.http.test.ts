import type { LiveEvent } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DAY, now } from '../context.js';
import type { PublishedDomainEvent } from '../events/outbox.js';
import { eventsSince, outboxMark } from '../test/domain-events.js';
import { assign, createInterval, openServicesOf } from '../test/engine-fixtures.js';
import { sendOdometer, startTestServer, TEST_DB, type TestServer } from '../test/harness.js';
import { servicesFixture } from '../test/services-fixtures.js';

/**
 * A reading that moves the counters but crosses no notice records its `unit.counters` and wakes no
 * consumer (events/outbox.ts `publish(recorded)`); one that crosses a notice still makes the
 * Due service before its answer, and its `service.due` reaches the consumers and its live event the bus.
 */
describe('readings and the outbox', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
  });
  afterAll(() => t?.close());

  it('a plain reading publishes nothing; one within notice makes the Due service, its event and live event', async () => {
    const { ctx } = t.server;
    const db = ctx.db.kysely;
    const unitId = await fx.unit(5000, 300);
    const { device_id: deviceId } = await fx.unitRow(unitId);
    const intervalId = await createInterval(db, fx.fleetId, 'Quiet oil', { cnme: 1, cnmd: 1000, cnmo: 100 });
    // Remaining 4200 + 1000 − 5000 = 200 km, notice 100.
    const assignmentId = await assign(db, {
      fleetId: fx.fleetId,
      intervalId,
      type: 'u',
      id: unitId,
      lcnm: 4200,
      ltm: now() - 10 * DAY,
    });
    const due: PublishedDomainEvent[] = [];
    const stop = ctx.outbox.register({
      name: 'quiet-readings-due',
      types: ['service.due'],
      async handle(_trx, events) {
        due.push(...events);
      },
    });
    const live: LiveEvent[] = [];
    const unsubscribe = ctx.bus.subscribe((e) => live.push(e));
    const publishing = vi.spyOn(ctx.outbox, 'publishPending');
    const read = (km: number, ago: number) => sendOdometer(t, deviceId, km, ago);
    try {
      await ctx.outbox.consumers.drainAll();
      // The first reading is the device's baseline; the second moves the counters by 10 km.
      await read(5000, 100);
      let m = await outboxMark(db);
      publishing.mockClear();
      await read(5010, 90);
      expect((await eventsSince(db, m)).map((e) => e.type)).toEqual(['unit.counters']);
      expect(publishing).not.toHaveBeenCalled();
      expect(await openServicesOf(db, assignmentId)).toEqual([]);
      if (TEST_DB === 'postgres') {
        const pending = await db.selectFrom('domain_events').select('seq').where('id', '>', m).execute();
        expect(pending.map((r) => r.seq)).toEqual([null]);
      }

      // 110 km to go, then 90: within notice. The service exists when the reading is answered.
      m = await outboxMark(db);
      await read(5110, 50);
      const [service] = await openServicesOf(db, assignmentId);
      expect(service).toMatchObject({ f: 1 });
      expect((await eventsSince(db, m)).map((e) => e.type)).toEqual(['unit.counters', 'service.due']);
      expect(publishing).toHaveBeenCalled();
      await expect.poll(() => due.length, { timeout: 10_000 }).toBe(1);
      expect(due[0]).toMatchObject({ type: 'service.due', serviceId: service!.id, objectId: unitId });
      await expect
        .poll(() => live.some((e) => e.t === 'c' && e.s === 'service' && e.fid === fx.fleetId), {
          timeout: 10_000,
        })
        .toBe(true);
    } finally {
      publishing.mockRestore();
      unsubscribe();
      stop();
    }
  });
});
