// Delivery latency of the notification channels: from a status change through the
// HTTP API to the webhook's receipt, over BENCH_DELIVERY_EVENTS (default 1,000) events, p50 and p99, on
// each database of the run, beside the ping baseline of the same run (DESIGN §9).
//
// The path measured is the whole one: the status change commits its service row and domain event
// (outbox), the outbox publishes after the commit, the channels consumer queues the delivery in its own
// transaction and wakes the delivery worker, which claims it (SKIP LOCKED on PostgreSQL), signs the
// payload (HMAC-SHA256) and POSTs it to a local receiver in this process. The in-app notifications
// consumer runs beside it, as in production.
//
// Steps: the manager creates the services as Due first (the webhook wants "in progress" only, kind 2, so
// those creations deliver nothing), then sets them In progress one at a time, each timed from the moment
// its request is sent to the moment the receiver has the payload naming that service. Every event must
// arrive exactly once (a second receipt or a missing one fails the benchmark).
import http from 'node:http';
import { BenchError, login, probe } from './lib.mjs';

const EVENTS = Number(process.env.BENCH_DELIVERY_EVENTS || 1000);
/** A receipt not seen within this long fails the benchmark (the worker also polls every 15 s). */
const RECEIPT_TIMEOUT_MS = 30_000;
/** Requests in flight while creating the services (not measured). */
const CREATE_CONCURRENCY = 8;
/** The demo fleet's first unit (packages/server/src/demo/seed.ts: units 1 … 25 of fleet 1). */
const DEMO_UNIT = 1;
/** How long to wait after the last receipt for a late duplicate. */
const SETTLE_MS = 1000;
const SECRET = 'bench-webhook-secret';

const round = (n, d) => Math.round(n * 10 ** d) / 10 ** d;

/** The `q` quantile (0..1) of sorted numbers, nearest rank. */
function quantile(sorted, q) {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1];
}

/** A local webhook receiver: resolves the waiter of each service id, counts every receipt. */
async function startReceiver() {
  const receipts = new Map();
  const waiters = new Map();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      let sid = null;
      try {
        sid = JSON.parse(body)?.service?.id ?? null;
      } catch {
        // not ours
      }
      if (sid === null) return;
      receipts.set(sid, (receipts.get(sid) ?? 0) + 1);
      const w = waiters.get(sid);
      if (w) {
        waiters.delete(sid);
        w(at);
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/fleetkeep`,
    receipts,
    /** Resolves with the receipt time of the payload naming `sid`. */
    wait(sid) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(sid);
          reject(new BenchError(`no webhook for service ${sid} within ${RECEIPT_TIMEOUT_MS} ms`));
        }, RECEIPT_TIMEOUT_MS);
        waiters.set(sid, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function createServices(ctx, api, authorization) {
  const ids = [];
  let next = 0;
  const worker = async () => {
    while (next < EVENTS) {
      const n = next++;
      const s = await probe(`${ctx.url}${api}/services`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ t: 'u', uid: DEMO_UNIT, f: 1, n: `Delivery bench ${n}` }),
      });
      ids.push(s.id);
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  return ids.sort((a, b) => a - b);
}

export const deliveryLatency = {
  id: 'deliveries',
  title: `status change → webhook receipt (${EVENTS} events)`,
  async run(ctx) {
    const { fid, authorization } = await login(ctx.url, 'manager', ctx.password);
    const api = `/api/fleets/${fid}`;
    const json = { authorization, 'content-type': 'application/json' };
    const receiver = await startReceiver();
    try {
      const ids = await createServices(ctx, api, authorization);
      await probe(`${ctx.url}${api}/webhooks`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ n: 'Delivery bench', k: 2, url: receiver.url, secret: SECRET }),
      });

      const latencies = [];
      const started = performance.now();
      for (const sid of ids) {
        const arrived = receiver.wait(sid);
        const t0 = performance.now();
        await probe(`${ctx.url}${api}/services/status/batch`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ f: 2, services: [sid] }),
        });
        latencies.push((await arrived) - t0);
      }
      const elapsedS = (performance.now() - started) / 1000;
      await new Promise((r) => setTimeout(r, SETTLE_MS));

      const doubled = ids.filter((sid) => (receiver.receipts.get(sid) ?? 0) > 1).length;
      if (doubled > 0) throw new BenchError(`${doubled} events were delivered more than once`);
      const log = await probe(`${ctx.url}${api}/deliveries?channel=webhook&status=sent&limit=1`, {
        headers: { authorization },
      });
      if (!Array.isArray(log.deliveries) || log.deliveries.length !== 1)
        throw new BenchError('the delivery log does not show the sent webhooks');

      const sorted = [...latencies].sort((a, b) => a - b);
      const avg = sorted.reduce((s, x) => s + x, 0) / sorted.length;
      return {
        // Events per second through the whole path, one at a time (each waits for its receipt).
        requests_per_sec: round(EVENTS / elapsedS, 1),
        latency_ms: {
          p50: round(quantile(sorted, 0.5), 2),
          p99: round(quantile(sorted, 0.99), 2),
          avg: round(avg, 2),
          max: round(sorted[sorted.length - 1], 2),
        },
        requests: EVENTS,
        ok_requests: EVENTS,
        events: EVENTS,
        delivered_once: EVENTS - doubled,
        duration_s: round(elapsedS, 1),
      };
    } finally {
      await receiver.close();
    }
  },
};

export const benchmarks = [deliveryLatency];
