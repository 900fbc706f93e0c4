import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * The load soak's 2,000 reporting units in a worker thread of their own, so that the
 * 200 simulated users of the test thread and the readings do not wait on one event loop: each unit
 * reports every `everyMs` from a random phase (spread evenly over the period) until `end`, and the
 * worker posts back per-request times and failures (time-outs counted apart, see load.soak.ts) and its own
 * event-loop delay (a starved worker makes readings look slow). Plain JavaScript: a worker is started by Node, not by
 * the test runner's TypeScript transform.
 *
 * workerData: { feeds: [{ url, device, index }], end, everyMs, timeoutMs }
 */

const { feeds, end, everyMs, timeoutMs } = workerData;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = [];
const samples = [];
let errors = 0;
let timeouts = 0;
/** Wall-clock start (ms) of every failed reading: when in the run the failures came. */
const failedAt = [];
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

async function reading(url) {
  const started = performance.now();
  const startedAt = Date.now();
  const controller = new AbortController();
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('timeout');
    }, timeoutMs);
  });
  const attempt = (async () => {
    try {
      const res = await fetch(url, { signal: controller.signal });
      const text = await res.text();
      if (res.status === 200 && JSON.parse(text).ok === true) return undefined;
      return `${res.status} ${text.slice(0, 160)}`;
    } catch (err) {
      // fetch's own connect deadline (10 s) is a time-out too: the server did not accept the connection
      // in time (its accept queue overflows while its event loop is kept off the CPU).
      if (controller.signal.aborted) return 'timeout';
      if (err.cause?.code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect timeout';
      return `broken: ${err.message} (${err.cause?.code ?? err.cause?.message ?? 'no cause'})`;
    }
  })();
  try {
    const failure = await Promise.race([attempt, deadline]);
    ms.push(performance.now() - started);
    if (failure) {
      errors++;
      failedAt.push(startedAt);
      if (failure.endsWith('timeout')) timeouts++;
      // Up to three examples of each kind: a real error must show even after many time-outs.
      const kind = (f) => (f.endsWith('timeout') ? f : 'other');
      if (samples.filter((f) => kind(f) === kind(failure)).length < 3) samples.push(failure);
    }
  } finally {
    clearTimeout(timer);
  }
}

async function feed({ url, device, index }) {
  // Phases spread evenly over the period: a steady 200 readings a second, not bursts.
  await sleep((index / feeds.length) * everyMs);
  let odometerM = 5_000_000 + index * 1000;
  let next = Date.now();
  while (next < end) {
    odometerM += 150;
    const query = new URLSearchParams({
      id: device,
      timestamp: String(Date.now()),
      lat: (54.6 + (index % 100) * 1e-3).toFixed(6),
      lon: (25.2 + (odometerM % 10_000) * 1e-6).toFixed(6),
      speed: '29',
      odometer: String(odometerM),
    });
    await reading(`${url}/?${query}`);
    next += everyMs;
    await sleep(Math.max(0, next - Date.now()));
  }
}

await Promise.all(feeds.map(feed));
loop.disable();
parentPort.postMessage({
  ms,
  errors,
  timeouts,
  failedAt,
  samples,
  loop: { max: loop.max / 1e6, p99: loop.percentile(99) / 1e6 },
});
