// HTTP API benchmarks against one running server. Each benchmark is `{id, title, baseline?, prepare?, run}`:
// - `prepare(db)` (optional) changes the data set while the server is stopped (see run.mjs);
// - `run(ctx)` loads the server and returns the figures of `load()` (lib.mjs), or throws BenchError.
// The baseline (a trivial JSON route of the same server, DESIGN §9) runs first; ratios are against it.
import { BenchError, load, login, probe, requireSuccess } from './lib.mjs';

/** The demo devices `demo-001` … `demo-025` (packages/server/src/demo/seed.ts). */
const DEMO_DEVICES = Array.from({ length: 25 }, (_, i) => `demo-${String(i + 1).padStart(3, '0')}`);
const DEMO_CENTRE = { lat: 53.9, lon: 27.56 };
/**
 * Ingestion accepts one reading per device and second, only after the device's last message, and at
 * most 5 minutes ahead of the server clock. The demo seed stamps every unit "now", so `prepare` moves the
 * demo units' last message this far back; readings then run forward from there, one second apart.
 */
const HISTORY_S = 30 * 86_400;

export const ping = {
  id: 'ping',
  title: 'GET /api/ping (baseline)',
  baseline: true,
  async run(ctx) {
    await probe(`${ctx.url}/api/ping`);
    return requireSuccess(await load(ctx.url, { path: '/api/ping', cpuMs: ctx.cpuMs }));
  },
};

export const ingestOsmand = {
  id: 'ingest_osmand',
  title: 'GET /api/ingest/osmand (positions)',
  /** Moves the demo units' clock back so that a long run of increasing timestamps is accepted. */
  async prepare(db) {
    await db.exec(
      `update units set last_time = last_time - ${HISTORY_S} where device_id like 'demo-%' and last_time is not null`,
    );
  },
  async run(ctx) {
    const start = Math.floor(Date.now() / 1000) - HISTORY_S + 60;
    /** Per device: next timestamp and step count. Module-wide, so warm-up and run never reuse one. */
    const clock = new Map(DEMO_DEVICES.map((d, i) => [d, { t: start, n: 0, i }]));
    const reading = (device) => {
      const c = clock.get(device);
      c.t += 1;
      c.n += 1;
      // About 40 km/h north-east from a point on a ring around the demo centre: plausible readings.
      const angle = (c.i / DEMO_DEVICES.length) * 2 * Math.PI;
      const lat = DEMO_CENTRE.lat + 0.15 * Math.sin(angle) + c.n * 0.00007;
      const lon = DEMO_CENTRE.lon + 0.25 * Math.cos(angle) + c.n * 0.00012;
      return `/api/ingest/osmand?id=${device}&timestamp=${c.t}&lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}&speed=21.6&bearing=45&ignition=true`;
    };

    // The endpoint must exist and accept a reading before the load starts.
    const first = await probe(`${ctx.url}${reading(DEMO_DEVICES[0])}`);
    if (first?.ok !== true) throw new BenchError(`first reading refused: ${JSON.stringify(first)}`);

    // Each device belongs to one connection, so that its readings arrive in order (no pipelining).
    let nextClient = 0;
    let accepted = 0;
    let refused = 0;
    let firstRefusal;
    const setupClient = (client) => {
      const mine = DEMO_DEVICES.filter((_, i) => i % ctx.connections === nextClient % ctx.connections);
      nextClient++;
      let k = 0;
      client.setRequests([
        {
          method: 'GET',
          setupRequest(req) {
            req.path = reading(mine[k++ % mine.length]);
            return req;
          },
          onResponse(status, body) {
            if (status >= 200 && status < 300 && body.includes('"ok":true')) accepted++;
            else {
              refused++;
              firstRefusal ??= `${status} ${body.slice(0, 160)}`;
            }
          },
        },
      ]);
    };
    if (ctx.connections > DEMO_DEVICES.length) {
      throw new BenchError(`at most ${DEMO_DEVICES.length} connections (one demo device each at least)`);
    }
    const result = await load(ctx.url, { setupClient, cpuMs: ctx.cpuMs });
    // `load` counts warm-up and run together in these counters; scale the refusals to the run.
    const share = refused / Math.max(1, accepted + refused);
    result.refused_share = Math.round(share * 10_000) / 10_000;
    if (share > 0.01) {
      throw new BenchError(`${(share * 100).toFixed(1)} % of readings refused, e.g. ${firstRefusal}`);
    }
    result.positions_per_sec = result.requests_per_sec;
    return requireSuccess(result);
  },
};

export const fleetUnits = {
  id: 'fleet_units',
  title: 'GET /api/fleets/{fid}/units (manager)',
  async run(ctx) {
    const { fid, authorization } = await login(ctx.url, 'manager', ctx.password);
    const path = `/api/fleets/${fid}/units`;
    const body = await probe(`${ctx.url}${path}`, { headers: { authorization } });
    const count = Array.isArray(body) ? body.length : Array.isArray(body?.units) ? body.units.length : null;
    const result = requireSuccess(
      await load(ctx.url, { path, headers: { authorization }, cpuMs: ctx.cpuMs }),
    );
    result.units_per_reply = count;
    return result;
  },
};

/** One authenticated small read: `path(fid, authorization)` names it, `count(body)` describes the reply. */
async function smallRead(ctx, pathOf) {
  const { fid, authorization } = await login(ctx.url, 'manager', ctx.password);
  const path = await pathOf(fid, authorization);
  const body = await probe(`${ctx.url}${path}`, { headers: { authorization } });
  if (body === undefined || body === null || body.error)
    throw new BenchError(`${path}: ${JSON.stringify(body)}`);
  return requireSuccess(await load(ctx.url, { path, headers: { authorization }, cpuMs: ctx.cpuMs }));
}

export const serviceRead = {
  id: 'service_read',
  title: 'GET /api/fleets/{fid}/services/{id} (manager)',
  run: (ctx) =>
    smallRead(ctx, async (fid, authorization) => {
      const list = await probe(`${ctx.url}/api/fleets/${fid}/services`, { headers: { authorization } });
      const id = list?.services?.[0]?.id;
      if (!id) throw new BenchError('the demo fleet has no open service to read');
      return `/api/fleets/${fid}/services/${id}`;
    }),
};

/**
 * The settings read: there is no GET /api/user/settings (user settings come with /api/auth, which opens a
 * session); GET /api/fleets is the user's fleets with their acl and settings, read by the web app on start.
 */
export const settingsRead = {
  id: 'settings_read',
  title: 'GET /api/fleets (fleets with settings, manager)',
  run: (ctx) => smallRead(ctx, async () => '/api/fleets'),
};

export const benchmarks = [ping, ingestOsmand, fleetUnits, serviceRead, settingsRead];
