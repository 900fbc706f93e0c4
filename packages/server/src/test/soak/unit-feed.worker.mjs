import { parentPort, workerData } from 'node:worker_threads';

/**
 * The load soak's 2,000 reporting units (issue 14 item 4) in a worker thread of their own, so that the
 * 200 simulated users of the test thread and the readings do not wait on one event loop: each unit
 * reports every `everyMs` from a random phase (spread evenly over the period) until `end`, and the
 * worker posts back per-request times and failures. Plain JavaScript: a worker is started by Node, not by
 * the test runner's TypeScript transform.
 *
 * workerData: { feeds: [{ url, device, index }], end, everyMs, timeoutMs }
 */

const { feeds, end, everyMs, timeoutMs } = workerData;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = [];
const samples = [];
let errors = 0;

async function reading(url) {
  const started = performance.now();
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
      return controller.signal.aborted ? 'timeout' : `broken: ${err.message}`;
    }
  })();
  try {
    const failure = await Promise.race([attempt, deadline]);
    ms.push(performance.now() - started);
    if (failure) {
      errors++;
      if (samples.length < 3) samples.push(failure);
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
parentPort.postMessage({ ms, errors, samples });
