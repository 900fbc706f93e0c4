import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSimulation } from '../../../../scripts/sim/devices.mjs';
import { ensureUnits } from '../../../../scripts/sim/units.mjs';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../test/harness.js';
import * as codec from './teltonika/codec.js';
import { startTeltonikaServer, type TeltonikaServer } from './teltonika/server.js';

/**
 * The device simulator of `npm run simulate` (scripts/sim) against the real server: it creates its units
 * through the API, then Teltonika trackers over TCP and OsmAnd trackers over HTTP drive them, and the
 * units' counters move (DESIGN §3 "Telematics ingestion").
 */
describe('device simulator against the server', () => {
  let t: TestServer;
  let tel: TeltonikaServer;
  beforeAll(async () => {
    t = await startTestServer();
    tel = await startTeltonikaServer(t.server.ctx, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await tel?.close();
    await t?.close();
  });

  const units = (ids: string[]) =>
    t.server.ctx.db.kysely
      .selectFrom('units')
      .select(['device_id', 'fleet_id', 'mileage', 'engine_hours', 'last_time', 'lat', 'lon'])
      .where('device_id', 'in', ids)
      .orderBy('device_id')
      .execute();

  it('creates the missing units, then 3 Teltonika and 2 OsmAnd trackers move their counters', async () => {
    const port = Number(new URL(t.url).port);
    const ids = [
      'simtest-tel-0001',
      'simtest-tel-0002',
      'simtest-tel-0003',
      'simtest-osm-0001',
      'simtest-osm-0002',
    ];
    const made = await ensureUnits({
      baseUrl: t.url,
      user: 'admin',
      password: DEMO_PASSWORD,
      ids: ids.slice(0, 2),
    });
    expect(made).toEqual({ fleet: t.demo.fleetId, created: 2, existing: 0 });
    const again = await ensureUnits({ baseUrl: t.url, user: 'admin', password: DEMO_PASSWORD, ids });
    expect(again).toEqual({ fleet: t.demo.fleetId, created: 3, existing: 2 });
    const before = await units(ids);
    expect(before.map((u) => [u.device_id, u.fleet_id, u.last_time])).toEqual(
      [...ids].sort().map((id) => [id, t.demo.fleetId, null]),
    );

    // Six hours in the past, records 6 to 60 s apart: the devices catch up as fast as they are
    // acknowledged, and every truck has driven (a stop lasts at most 15 minutes) before it is stopped.
    const sim = runSimulation({
      teltonika: 3,
      osmand: 2,
      port,
      teltonikaPort: tel.port,
      intervalMs: 60_000,
      records: [1, 10],
      prefix: 'simtest',
      startMs: Date.now() - 6 * 3_600_000,
      codec,
    });
    expect(sim.ids).toEqual({ teltonika: ids.slice(0, 3), osmand: ids.slice(3) });
    let moved: Awaited<ReturnType<typeof units>> = [];
    for (let round = 0; round < 300; round++) {
      await new Promise((r) => setTimeout(r, 100));
      moved = await units(ids);
      const all = moved.every(
        (u, k) => u.mileage > before[k]!.mileage && u.engine_hours > before[k]!.engine_hours,
      );
      if (all && sim.stats.acked >= 200) break;
    }
    await sim.stop();
    expect({ errors: sim.stats.errors, refused: sim.stats.refused, lastError: sim.stats.lastError }).toEqual({
      errors: 0,
      refused: 0,
      lastError: undefined,
    });
    expect(sim.stats.acked).toBeGreaterThanOrEqual(200);
    expect(sim.stats.connected).toBe(0);
    for (const [k, u] of moved.entries()) {
      const b = before[k]!;
      expect(u.mileage, u.device_id).toBeGreaterThan(b.mileage);
      expect(u.engine_hours, u.device_id).toBeGreaterThan(b.engine_hours);
      expect(u.last_time, u.device_id).toBeGreaterThan(Math.floor(Date.now() / 1000) - 6 * 3600);
      expect(u.lat, u.device_id).not.toBeNull();
    }
    // Nothing the simulator sent was refused into the ingest log.
    const logged = await t.server.ctx.db.kysely.selectFrom('ingest_log').select('device_id').execute();
    expect(logged.filter((r) => ids.includes(r.device_id))).toEqual([]);
  });
});
