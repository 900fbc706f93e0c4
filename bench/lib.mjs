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

/** Run-wide settings; each can be changed through the environment. */
export const settings = {
  durationS: Number(process.env.BENCH_DURATION || 10),
  warmupS: Number(process.env.BENCH_WARMUP || 2),
  connections: Number(process.env.BENCH_CONNECTIONS || 10),
};

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
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      OSMAND_PORT: '0',
      FLEETKEEP_DEMO: '1',
      FLEETKEEP_SIMULATOR_MS: '3600000',
      LOG_LEVEL: 'warn',
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
    rssMb() {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
        return Number.isFinite(kb) ? Math.round(kb / 102.4) / 10 : null;
      } catch {
        return null;
      }
    },
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
  const { path = '', ...rest } = opts;
  const base = {
    url: `${baseUrl}${path}`,
    connections: settings.connections,
    ...rest,
  };
  if (settings.warmupS > 0) await cannon({ ...base, duration: settings.warmupS });
  const r = await cannon({ ...base, duration: settings.durationS });
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
  };
}

/** Fails a load result when more than `maxBadShare` of its requests did not succeed. */
export function requireSuccess(result, maxBadShare = 0.01, hint = '') {
  const bad = result.requests - result.ok_requests;
  if (result.requests === 0) throw new BenchError('no request completed');
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
