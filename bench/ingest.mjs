// JSON batch ingestion (DESIGN §9 "ingestion, positions per second"): POST
// /api/ingest/batch with many readings per request, end to end (counters, positions, domain events and
// the status recomputation of the moved units). The figure is positions per second; the ratio of
// run.mjs compares requests, so `positions_per_sec` is the one to read.
import { BenchError, load, login, probe, requireSuccess } from './lib.mjs';

/** The demo devices `demo-001` … `demo-025` (packages/server/src/demo/seed.ts). */
const DEMO_DEVICES = Array.from({ length: 25 }, (_, i) => `demo-${String(i + 1).padStart(3, '0')}`);
const DEMO_CENTRE = { lat: 53.9, lon: 27.56 };
/** Readings per request (core TELEMATICS_BATCH_MAX_ROWS allows 10,000). */
const ROWS_PER_REQUEST = 1000;
/** Connections at most: each owns its devices, so that their readings arrive in order. */
const MAX_CONNECTIONS = 5;
/**
 * `prepare` moves the demo units' last message this far back (beside ingest_osmand's own move), and the
 * readings start `START_AGO_S` before the run, one second apart per device: after every reading the
 * other ingestion benchmark sent, never in the future.
 */
const HISTORY_S = 40 * 86_400;
const START_AGO_S = 20 * 86_400;

export const ingestBatch = {
  id: 'ingest_batch',
  title: 'POST /api/ingest/batch (positions)',
  async prepare(db) {
    await db.exec(
      `update units set last_time = last_time - ${HISTORY_S}, last_ms = last_ms - ${HISTORY_S * 1000} where device_id like 'demo-%' and last_time is not null`,
    );
  },
  async run(ctx) {
    const { authorization } = await login(ctx.url, 'admin', ctx.password);
    const start = Math.floor(Date.now() / 1000) - START_AGO_S;
    const clock = new Map(DEMO_DEVICES.map((d, i) => [d, { t: start, n: 0, i }]));
    const reading = (device) => {
      const c = clock.get(device);
      c.t += 1;
      c.n += 1;
      // About 40 km/h north-east from a point on a ring around the demo centre (as ingest_osmand).
      const angle = (c.i / DEMO_DEVICES.length) * 2 * Math.PI;
      return {
        id: device,
        timestamp: c.t,
        lat: Number((DEMO_CENTRE.lat + 0.15 * Math.sin(angle) + c.n * 0.00007).toFixed(6)),
        lon: Number((DEMO_CENTRE.lon + 0.25 * Math.cos(angle) + c.n * 0.00012).toFixed(6)),
        speed: 21.6,
        bearing: 45,
        ignition: true,
      };
    };
    const body = (devices) =>
      JSON.stringify({
        positions: Array.from({ length: ROWS_PER_REQUEST }, (_, k) => reading(devices[k % devices.length])),
      });

    const headers = { authorization, 'content-type': 'application/json' };
    const first = await probe(`${ctx.url}/api/ingest/batch`, {
      method: 'POST',
      headers,
      body: body([DEMO_DEVICES[0]]),
    });
    if (!Array.isArray(first?.results) || first.results.some((r) => !r.ok))
      throw new BenchError(`first batch refused: ${JSON.stringify(first).slice(0, 200)}`);

    const connections = Math.min(ctx.connections, MAX_CONNECTIONS);
    let nextClient = 0;
    let refusedBatches = 0;
    let firstRefusal;
    const setupClient = (client) => {
      const me = nextClient++ % connections;
      const mine = DEMO_DEVICES.filter((_, i) => i % connections === me);
      client.setRequests([
        {
          method: 'POST',
          path: '/api/ingest/batch',
          headers,
          setupRequest(req) {
            req.body = body(mine);
            return req;
          },
          onResponse(status, text) {
            if (status >= 200 && status < 300 && !text.includes('"ok":false')) return;
            refusedBatches++;
            firstRefusal ??= `${status} ${text.slice(0, 160)}`;
          },
        },
      ]);
    };
    const result = requireSuccess(
      await load(ctx.url, { path: '/api/ingest/batch', connections, setupClient }),
    );
    if (refusedBatches > 0)
      throw new BenchError(`${refusedBatches} batches with refused rows, e.g. ${firstRefusal}`);
    result.rows_per_request = ROWS_PER_REQUEST;
    result.positions_per_sec = Math.round(result.requests_per_sec * ROWS_PER_REQUEST);
    return result;
  },
};

export const benchmarks = [ingestBatch];
