import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { type SimState, simulateTick, startSimulator } from '../demo/simulator.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/** A fixed sequence keeps the drive reproducible: no unit parks on the first tick. */
const steady = () => 0.5;

describe('demo simulator through the ingestion path', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  const snapshot = async () => {
    const rows = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select(['device_id', 'mileage', 'engine_hours', 'lat', 'lon', 'last_time', 'ignition'])
      .execute();
    return new Map(rows.map((r) => [r.device_id, r]));
  };

  it('moves the demo units, not the generator and not other fleets, and logs no refusal', async () => {
    const before = await snapshot();
    // On PostgreSQL events come back through LISTEN/NOTIFY, so wait for all 25 units × 2 messages.
    let unsubscribe = () => {};
    const messages = new Promise<number>((resolve) => {
      let count = 0;
      unsubscribe = t.server.ctx.bus.subscribe((e) => {
        if (e.s === 'avl_unit' && e.t === 'e' && ++count === 50) resolve(count);
      });
    });
    const states = new Map<number, SimState>();
    const t1 = now() + 5;
    await simulateTick(t.server.ctx, states, t1, steady);
    await simulateTick(t.server.ctx, states, t1, steady);
    await simulateTick(t.server.ctx, states, t1 + 60, steady);
    expect(await messages).toBe(50);
    unsubscribe();
    const after = await snapshot();

    for (let k = 1; k <= 25; k++) {
      const id = `demo-${String(k).padStart(3, '0')}`;
      const [b, a] = [before.get(id)!, after.get(id)!];
      expect(a.last_time, id).toBe(t1 + 60);
      if (id === 'demo-023') {
        // Generator G-200 (nonmoving): stays put, runs its engine.
        expect([a.lat, a.lon, a.mileage]).toEqual([b.lat, b.lon, b.mileage]);
        expect(a.engine_hours).toBeCloseTo(b.engine_hours + 60 / 3600, 6);
      } else {
        expect(a.mileage, id).toBeGreaterThan(b.mileage);
        expect(a.engine_hours, id).toBeGreaterThan(b.engine_hours);
      }
    }
    for (const id of ['northwind-1', 'northwind-2', 'northwind-3'])
      expect(after.get(id)).toEqual(before.get(id));
    expect(await t.server.ctx.db.kysely.selectFrom('ingest_log').selectAll().execute()).toEqual([]);
  });

  it('stops its timer', () => {
    const simulator = startSimulator(t.server.ctx, 1000);
    simulator.stop();
    simulator.stop();
  });
});
