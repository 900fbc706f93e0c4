// Helpers of the benchmarks: the server under test as a child process, HTTP load with autocannon,
// sign-in, and results formatting.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from '../scripts/lib.mjs';

export const SERVER_MAIN = path.join(ROOT, 'packages/server/dist/main.js');

/**
 * Quick mode (`npm run bench -- --quick` or BENCH_QUICK=1): every benchmark on small data
 * sets with short runs, so that the whole run ends in under 3 minutes on SQLite. Its figures are a smoke
 * test of the benchmarks, not measurements: results.json labels them `quick`.
 */
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

/**
 * The data-set knobs of the benchmark modules and their sizes in quick mode. run.mjs sets each one that
 * the environment leaves unset before it imports the modules, which read them once at import time.
 */
export const QUICK_SIZES = {
  // BENCH_SERVICES stays at its full size (100,000, 10,000 open) until render.mjs takes the number of
  // rows it waits for from it: that benchmark waits for a counter of exactly 10,000 open services.
  BENCH_STAT_UNITS: 500,
  BENCH_ENGINE_UNITS: 1_000,
  BENCH_RENDER_RUNS: 2,
  BENCH_DELIVERY_EVENTS: 100,
  BENCH_IMPORT_ROWS: 1_000,
  BENCH_IMPORT_ROUNDS: 1,
  BENCH_WS_CHANGES: 20,
  BENCH_TELTONIKA_DEVICES: 100,
};

/** Seconds of load and of warm-up per HTTP benchmark, full and quick. */
const DURATION_S = QUICK ? 2 : 10;
const WARMUP_S = QUICK ? 0.5 : 2;

/** Run-wide settings; each can be changed through the environment. */
export const settings = {
  durationS: Number(process.env.BENCH_DURATION || DURATION_S),
  warmupS: Number(process.env.BENCH_WARMUP || WARMUP_S),
  connections: Number(process.env.BENCH_CONNECTIONS || 10),
  quick: QUICK,
};

/** Sets the quick sizes of QUICK_SIZES that the environment leaves unset (quick mode only). */
export function applyQuickSizes() {
  if (!QUICK) return {};
  const applied = {};
  for (const [name, value] of Object.entries(QUICK_SIZES)) {
    if (process.env[name]) continue;
    process.env[name] = String(value);
    applied[name] = value;
  }
  return applied;
}

/** A benchmark that cannot run (endpoint missing, wrong answers); reported, never thrown past run.mjs. */
export class BenchError extends Error {}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the built server and resolves once GET /api/ping answers 200. `startupMs` runs from the spawn to
 * that first 200: process start, migrations, demo seed (on an empty database) and listen.
 */
export async function startServer({ env, logFile, timeoutMs = 120_000 }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = fs.openSync(logFile, 'a');
  const started = performance.now();
  // BENCH_SERVER_ARGS: node options of the server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
  // (profile.mjs reads the profiles it writes).
  const nodeArgs = (process.env.BENCH_SERVER_ARGS || '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, SERVER_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      OSMAND_PORT: '0',
      TELTONIKA_PORT: '0',
      FLEETKEEP_DEMO: '1',
      FLEETKEEP_SIMULATOR_MS: '3600000',
      LOG_LEVEL: 'warn',
      // The deliveries benchmark's webhook receiver listens on loopback (refused by the default policy).
      FLEETKEEP_OUTBOUND_ALLOW: 'external,loopback',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exited;
  child.once('exit', (code, signal) => {
    exited = { code, signal };
  });
  for (;;) {
    if (exited) {
      throw new BenchError(
        `server exited during start-up (${exited.code ?? exited.signal}); see ${logFile}:\n${tail(logFile)}`,
      );
    }
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new BenchError(`server did not answer /api/ping within ${timeoutMs} ms; see ${logFile}`);
    }
    try {
      const res = await fetch(`${url}/api/ping`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  const startupMs = performance.now() - started;
  return {
    url,
    port,
    pid: child.pid,
    startupMs,
    /** Resident memory of the server in MiB (Linux), or null. */
    rssMb: () => procStatusMb(child.pid, 'VmRSS'),
    /** The highest resident memory of the server since it started, in MiB (Linux), or null. */
    peakRssMb: () => procStatusMb(child.pid, 'VmHWM'),
    /** CPU time the server has used since it started (user + system), in ms (Linux), or null. */
    cpuMs: () => processCpuMs(child.pid),
    /** SIGTERM and wait; resolves to the exit code and how long the shutdown took. */
    async stop() {
      const t0 = performance.now();
      if (!exited) {
        child.kill('SIGTERM');
        const deadline = performance.now() + 15_000;
        while (!exited && performance.now() < deadline) await sleep(20);
        if (!exited) {
          child.kill('SIGKILL');
          while (!exited) await sleep(20);
        }
      }
      return { code: exited.code, signal: exited.signal, ms: performance.now() - t0 };
    },
  };
}

/**
 * Waits until the server has been idle for a second (at most 3% of one CPU over the last second), at
 * most `timeoutMs`: the demo's start-up work (seeded events worked through by the outbox, the first
 * engine run) would otherwise land in the first benchmark, the ping baseline, and move every ratio.
 * Resolves to how long it waited, in ms, and whether it settled.
 */
export async function waitUntilIdle(server, { windowMs = 1000, maxShare = 0.03, timeoutMs = 30_000 } = {}) {
  const t0 = performance.now();
  let before = server.cpuMs();
  if (before === null) return { waitedMs: 0, settled: false };
  for (;;) {
    await sleep(windowMs);
    const after = server.cpuMs();
    if (after === null) return { waitedMs: Math.round(performance.now() - t0), settled: false };
    if (after - before <= windowMs * maxShare)
      return { waitedMs: Math.round(performance.now() - t0), settled: true };
    if (performance.now() - t0 > timeoutMs)
      return { waitedMs: Math.round(performance.now() - t0), settled: false };
    before = after;
  }
}

/** A memory line of `/proc/<pid>/status` (kB there) in MiB with one decimal, or null. */
function procStatusMb(pid, field) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 102.4) / 10 : null;
  } catch {
    return null;
  }
}

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_S = 100;

/** User + system CPU time of a process from `/proc/<pid>/stat`, in ms, or null. */
export function processCpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime, fields 14 and 15
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_S : null;
  } catch {
    return null;
  }
}

/** The soft limit on open files of a process (`ulimit -n`), from `/proc/<pid>/limits`, or null. */
export function openFilesLimit(pid = 'self') {
  try {
    const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8');
    const soft = /Max open files\s+(\S+)/.exec(limits)?.[1];
    return soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
  } catch {
    return null;
  }
}

/** The `q` quantile (0..1) of numbers sorted ascending, nearest rank; null when there are none. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1];
}

/** p50, p99, average and maximum of a list of milliseconds, rounded to `digits`. */
export function latencySummary(values, digits = 2) {
  const sorted = Float64Array.from(values).sort();
  const sum = sorted.reduce((s, x) => s + x, 0);
  return {
    p50: round(quantile(sorted, 0.5), digits),
    p99: round(quantile(sorted, 0.99), digits),
    avg: round(sum / Math.max(1, sorted.length), digits),
    max: round(sorted[sorted.length - 1] ?? 0, digits),
  };
}

export function tail(file, lines = 20) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** One request with fetch; a non-2xx answer is a BenchError that names the status and the body. */
export async function probe(url, init = {}) {
  let res;
  try {
    res = await fetch(url, init);
  } catch (err) {
    throw new BenchError(`${init.method ?? 'GET'} ${url}: ${err.message}`);
  }
  const text = await res.text();
  if (res.status < 200 || res.status > 299) {
    throw new BenchError(
      `${init.method ?? 'GET'} ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 200)}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Signs a demo user in (DESIGN §4) and returns the session and the user's current fleet. */
export async function login(baseUrl, username, password) {
  const { access_token } = await probe(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const auth = await probe(`${baseUrl}/api/auth?access_token=${encodeURIComponent(access_token)}`);
  return { session: auth.session, fid: auth.fid, authorization: `SSID ${auth.session}` };
}

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/**
 * HTTP load with autocannon: a warm-up (not recorded), then `durationS` seconds with `connections`
 * connections. `verifyBody` (optional) marks answers that are 2xx but wrong (counted as mismatches).
 * Returns the figures every HTTP benchmark reports.
 */
export async function load(baseUrl, opts) {
  // autocannon has no `path` option: a path must be part of the URL, or every request hits `/`.
  // `cpuMs` (optional, the server's `ctx.cpuMs`): also report the server's CPU time per request of the
  // recorded run, a figure that a machine shared with other work disturbs far less than req/s.
  const { path = '', cpuMs, ...rest } = opts;
  const base = {
    url: `${baseUrl}${path}`,
    connections: settings.connections,
    ...rest,
  };
  if (settings.warmupS > 0) await cannon({ ...base, duration: settings.warmupS });
  const cpuBefore = cpuMs?.() ?? null;
  const r = await cannon({ ...base, duration: settings.durationS });
  const cpuAfter = cpuMs?.() ?? null;
  const total = r.requests.total;
  const bad = r.non2xx + r.errors + r.timeouts + (r.mismatches ?? 0);
  const statusCodes = Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {}).map(([code, v]) => [code, Number(v.count)]),
  );
  return {
    requests_per_sec: round(r.requests.average, 1),
    latency_ms: {
      p50: r.latency.p50,
      p99: r.latency.p99,
      avg: round(r.latency.average, 2),
      max: r.latency.max,
    },
    requests: total,
    ok_requests: Math.max(0, total - bad),
    non2xx: r.non2xx,
    mismatches: r.mismatches ?? 0,
    errors: r.errors,
    timeouts: r.timeouts,
    status_codes: statusCodes,
    duration_s: r.duration,
    connections: r.connections,
    ...(cpuBefore !== null && cpuAfter !== null && total > 0
      ? { server_cpu_us_per_request: round(((cpuAfter - cpuBefore) * 1000) / total, 1) }
      : {}),
  };
}

/** Fails a load result when more than `maxBadShare` of its requests did not succeed. */
export function requireSuccess(result, maxBadShare = 0.01, hint = '') {
  const bad = result.requests - result.ok_requests;
  if (result.requests === 0) {
    throw new BenchError(
      `no request completed in ${result.duration_s} s (${result.errors} errors, ${result.timeouts} timeouts)${hint ? `: ${hint}` : ''}`,
    );
  }
  if (bad / result.requests > maxBadShare) {
    const codes = Object.entries(result.status_codes)
      .map(([c, n]) => `${c}×${n}`)
      .join(', ');
    throw new BenchError(
      `${bad} of ${result.requests} requests failed (status ${codes}; ${result.mismatches} wrong bodies, ${result.errors} errors)${hint ? `: ${hint}` : ''}`,
    );
  }
  return result;
}

export function round(n, digits = 2) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** A fresh PostgreSQL database beside the one BENCH_DATABASE_URL names. */
export async function createPgDatabase(adminUrl) {
  const { default: pg } = await import('pg');
  const name = `fk_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
