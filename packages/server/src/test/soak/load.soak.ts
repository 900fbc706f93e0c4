import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../auth/secrets.js';
import { createPgDatabase, DEMO_PASSWORD } from '../harness.js';
import {
  assertBuilt,
  BROKEN,
  type Instance,
  inspect,
  type Outcome,
  signIn,
  sleep,
  startInstance,
  TIMED_OUT,
  timed,
  type Where,
} from './instance.js';
import { failureWindows, percentile, serverFigures, starvedBy } from './load-figures.js';

/**
 * The load run (DESIGN §9): 200 simulated users (sign-in, lists, reads, edits) and
 * 2,000 units reporting every 10 s on the OsmAnd port (both written to the database first; the units
 * report from a worker thread, spread evenly over the 10 s), for SOAK_MINUTES (default 5), on one instance over
 * SQLite, one over PostgreSQL and two over one PostgreSQL database (users and units split between them).
 * Zero errors are expected; it prints, per setup, the requests, errors and p50/p99 per route and each
 * instance's RSS at the start and the end of the load. `SOAK_SETUPS=sqlite,pg1,pg2` picks setups.
 */

const MINUTES = Number(process.env.SOAK_MINUTES ?? 5);
/** Quick local iteration may shrink the run; `npm run test:soak` keeps the figures. */
const USERS = Number(process.env.SOAK_USERS ?? 200);
const UNITS = Number(process.env.SOAK_UNITS ?? 2_000);
const REPORT_EVERY_MS = 10_000;
/**
 * Users sign in spread over this much of the start: an argon2 check (19 MiB, 2 passes) took about 130 ms
 * on the shared 2-core machine, and 200 sign-ins in 20 s queued past the 30 s time-out there (a load
 * run, PostgreSQL); 200 people arriving over a minute is the fairer load.
 */
const SIGN_IN_SPREAD_MS = 60_000;
/** A user's pause between two actions: uniform in [THINK_MIN_MS, THINK_MAX_MS). */
const THINK_MIN_MS = 3_000;
const THINK_MAX_MS = 12_000;
/** A user signs in again after this many actions (a new session, as a new browser tab). */
const ACTIONS_PER_SESSION = 40;
const REQUEST_TIMEOUT_MS = 30_000;
/** The instances sit behind a (simulated) reverse proxy that names each user's address. */
const PROXIED = { TRUST_PROXY: '1' };
const UNIT_INSERT_CHUNK = 100;

type Setup = 'sqlite' | 'pg1' | 'pg2';
const SETUPS = (process.env.SOAK_SETUPS ?? 'sqlite,pg1,pg2').split(',').map((s) => s.trim()) as Setup[];

interface Route {
  ms: number[];
  /** Every failed request, time-outs included. */
  errors: number;
  /** Requests with no answer within REQUEST_TIMEOUT_MS, or whose connection was not accepted in fetch's 10 s. */
  timeouts: number;
  samples: string[];
}

/** The feed worker's tally (unit-feed.worker.mjs). */
interface FeedTally {
  ms: number[];
  errors: number;
  timeouts: number;
  failedAt: number[];
  samples: string[];
  loop: { max: number; p99: number };
}

class Stats {
  readonly routes = new Map<string, Route>();
  add(route: string, o: Outcome, ok: boolean): void {
    let r = this.routes.get(route);
    if (!r) {
      r = { ms: [], errors: 0, timeouts: 0, samples: [] };
      this.routes.set(route, r);
    }
    r.ms.push(o.ms);
    if (!ok) {
      r.errors++;
      if (o.status === TIMED_OUT) r.timeouts++;
      if (r.samples.length < 6) {
        const what =
          o.status === TIMED_OUT
            ? `timeout (${o.error})`
            : o.status === BROKEN
              ? `broken: ${o.error}`
              : o.status;
        r.samples.push(`${what} ${JSON.stringify(o.body)?.slice(0, 160) ?? ''}`);
      }
    }
  }
  /** A tally made elsewhere (the unit feed worker). */
  merge(route: string, tally: FeedTally): void {
    this.routes.set(route, {
      ms: tally.ms,
      errors: tally.errors,
      timeouts: tally.timeouts,
      samples: tally.samples,
    });
  }
  get errors(): number {
    return [...this.routes.values()].reduce((n, r) => n + r.errors, 0);
  }
  get timeouts(): number {
    return [...this.routes.values()].reduce((n, r) => n + r.timeouts, 0);
  }
}

function rssMb(instance: Instance): number {
  const status = fs.readFileSync(`/proc/${instance.child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** 2,000 units of the demo fleet with device identifiers `load-<n>`, written straight to the database. */
async function addUnits(where: Where, fid: number): Promise<string[]> {
  const db = await inspect(where);
  try {
    const [fleet] = await db.all<{ account_id: number }>('select account_id from fleets where id = ?', [fid]);
    const t = Math.floor(Date.now() / 1000);
    const devices: string[] = [];
    for (let start = 0; start < UNITS; start += UNIT_INSERT_CHUNK) {
      const rows: unknown[][] = [];
      for (let i = start; i < Math.min(UNITS, start + UNIT_INSERT_CHUNK); i++) {
        const device = `load-${i}`;
        devices.push(device);
        rows.push([
          fleet!.account_id,
          fid,
          `Load unit ${i}`,
          device,
          10_000 + i,
          500,
          10_000 + i,
          500,
          t,
          t,
          t,
        ]);
      }
      const values = rows
        .map(
          () =>
            `(?, ?, ?, ?, null, ?, ?, ?, ?, 0, 0, ?, ?, null, null, null, null, null, null, '{}', '{}', '[]', 0, ?)`,
        )
        .join(', ');
      await db.exec(
        `insert into units (account_id, fleet_id, name, device_id, unit_type_id, mileage, engine_hours,
           base_mileage, base_engine_hours, pulled_mileage, pulled_engine_hours, joined_at, last_time, lat, lon,
           speed, course, altitude, ignition, props, params, cf, ins, created_at) values ${values}`,
        rows.flat(),
      );
    }
    return devices;
  } finally {
    await db.close();
  }
}

/**
 * The simulated users, written straight to the database: `load-user-<n>`, members of the demo fleet
 * with the manager's rights, every fourth with the viewer's (DEMO_PASSWORD). Returns who may write.
 */
async function addUsers(where: Where, fid: number): Promise<{ name: string; writer: boolean }[]> {
  const db = await inspect(where);
  try {
    const acl = async (name: string) =>
      (
        await db.all<{ acl: number; account_id: number }>(
          'select fu.acl, u.account_id from fleet_users fu join users u on u.id = fu.user_id where u.name = ? and fu.fleet_id = ?',
          [name, fid],
        )
      )[0]!;
    const manager = await acl('manager');
    const viewer = await acl('viewer');
    const hash = await hashPassword(DEMO_PASSWORD);
    const t = Math.floor(Date.now() / 1000);
    const users: { name: string; writer: boolean }[] = [];
    for (let n = 0; n < USERS; n++) {
      const name = `load-user-${n}`;
      const writer = n % 4 !== 3;
      await db.exec(
        `insert into users (account_id, name, full_name, password_hash, su, admin, settings, fid, created_at)
           values (?, ?, ?, ?, 0, 0, '{}', ?, ?)`,
        [manager.account_id, name, `Load user ${n}`, hash, fid, t],
      );
      await db.exec(
        'insert into fleet_users (fleet_id, user_id, acl) select ?, id, ? from users where name = ?',
        [fid, writer ? manager.acl : viewer.acl, name],
      );
      users.push({ name, writer });
    }
    return users;
  } finally {
    await db.close();
  }
}

/** The units' readings, in a worker thread (unit-feed.worker.mjs): resolves with its tally. */
function unitFeeds(feeds: { url: string; device: string; index: number }[], end: number): Promise<FeedTally> {
  const worker = new Worker(new URL('./unit-feed.worker.mjs', import.meta.url), {
    workerData: { feeds, end, everyMs: REPORT_EVERY_MS, timeoutMs: REQUEST_TIMEOUT_MS },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the unit feed worker exited with ${code}`)));
  });
}

/** One simulated user: signs in, then lists, reads and edits with pauses between, until `end`. */
async function user(
  url: string,
  who: { name: string; writer: boolean },
  n: number,
  stats: Stats,
  end: number,
  uids: number[],
) {
  const { name, writer } = who;
  await sleep(Math.random() * SIGN_IN_SPREAD_MS);
  const track = (route: string, o: Outcome) => {
    stats.add(route, o, o.status === 200);
    return o;
  };
  const signInTracked = async () => {
    const started = performance.now();
    // Each user from an address of its own, through a proxy (TRUST_PROXY): the login throttle counts
    // tries per address, so 200 sign-ins from one address would be throttled.
    const headers = { 'x-forwarded-for': `10.20.${n >> 8}.${n & 255}` };
    const body = { username: name, password: DEMO_PASSWORD };
    const login = await timed('POST', `${url}/api/login`, { body, headers, timeoutMs: REQUEST_TIMEOUT_MS });
    const token = (login.body as { access_token?: string } | undefined)?.access_token;
    const auth = token
      ? await timed('GET', `${url}/api/auth?access_token=${token}`, {
          headers,
          timeoutMs: REQUEST_TIMEOUT_MS,
        })
      : login;
    const session = (auth.body as { session?: string } | undefined)?.session;
    const ok = login.status === 200 && auth.status === 200 && session !== undefined;
    stats.add('sign-in (login + auth)', { ...auth, ms: performance.now() - started }, ok);
    return ok ? session : undefined;
  };
  let ssid = await signInTracked();
  const mine: number[] = [];
  for (let action = 1; Date.now() < end; action++) {
    await sleep(THINK_MIN_MS + Math.random() * (THINK_MAX_MS - THINK_MIN_MS));
    if (Date.now() >= end) break;
    if (!ssid || action % ACTIONS_PER_SESSION === 0) {
      ssid = await signInTracked();
      continue;
    }
    const opts = { ssid, timeoutMs: REQUEST_TIMEOUT_MS };
    const fleets = track('GET /api/fleets', await timed('GET', `${url}/api/fleets`, opts));
    const fid = (fleets.body as { fleets?: { id: number }[] } | undefined)?.fleets?.[0]?.id;
    if (fid === undefined) continue;
    const api = `${url}/api/fleets/${fid}`;
    const pick = Math.random();
    if (pick < 0.3) track('GET services', await timed('GET', `${api}/services`, opts));
    else if (pick < 0.45) track('GET units', await timed('GET', `${api}/units`, opts));
    else if (pick < 0.55) track('GET intervals', await timed('GET', `${api}/intervals`, opts));
    else if (!writer || pick < 0.7) {
      const id = mine.at(-1);
      if (id !== undefined) track('GET service', await timed('GET', `${api}/services/${id}`, opts));
      else track('GET services', await timed('GET', `${api}/services`, opts));
    } else if (pick < 0.85 || mine.length === 0) {
      const body = { n: `Load u${n} a${action}`, t: 'u', uid: uids[(n + action) % uids.length], f: 1 };
      const o = track('POST service', await timed('POST', `${api}/services`, { ...opts, body }));
      if (o.status === 200) mine.push((o.body as { id: number }).id);
    } else {
      const id = mine[Math.floor(Math.random() * mine.length)]!;
      const body = { description: `Edited by u${n} at action ${action}` };
      track('PUT service', await timed('PUT', `${api}/services/${id}`, { ...opts, body }));
    }
  }
}

function table(setup: string, stats: Stats, rss: { start: number[]; end: number[] }): string {
  const lines = [
    `load ${setup}: ${MINUTES} min, ${USERS} users, ${UNITS} units every ${REPORT_EVERY_MS / 1000} s; RSS MB start ${rss.start.join('/')} end ${rss.end.join('/')}`,
    `${'route'.padEnd(26)}${'requests'.padStart(10)}${'errors'.padStart(8)}${'of them time-outs'.padStart(19)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}`,
  ];
  for (const [route, r] of [...stats.routes.entries()].sort()) {
    const sorted = [...r.ms].sort((a, b) => a - b);
    lines.push(
      `${route.padEnd(26)}${String(r.ms.length).padStart(10)}${String(r.errors).padStart(8)}${String(r.timeouts).padStart(19)}${percentile(sorted, 50).toFixed(0).padStart(9)}${percentile(sorted, 99).toFixed(0).padStart(9)}`,
    );
    for (const s of r.samples) lines.push(`    e.g. ${s}`);
  }
  return lines.join('\n');
}

describe('load: 200 users and 2,000 units', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  for (const setup of SETUPS) {
    it(
      `${setup}: zero errors for ${MINUTES} min`,
      async () => {
        assertBuilt();
        const where: Where = { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), `fleetkeep-load-${setup}-`)) };
        cleanups.push(async () => fs.rmSync(where.dataDir, { recursive: true, force: true }));
        if (setup !== 'sqlite') {
          const db = await createPgDatabase();
          where.databaseUrl = db.url;
          cleanups.push(db.drop);
        }
        const instances: Instance[] = [];
        cleanups.push(async () => {
          for (const i of instances) await i.kill();
        });
        // Kept when the run fails (the path is printed), for a look at the stalls second by second.
        const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), `fleetkeep-load-${setup}-probe-`));
        const probes = (setup === 'pg2' ? [0, 1] : [0]).map((k) => path.join(probeDir, `loop-${k}.jsonl`));
        for (const probe of probes)
          instances.push(await startInstance(where, { ...PROXIED, FLEETKEEP_LOOP_PROBE_FILE: probe }));
        const manager = await signIn(instances[0]!.url, 'manager');
        const fid = (await manager.get('/api/fleets')).body.fleets[0].id as number;
        const uids = ((await manager.get(`/api/fleets/${fid}/units`)).body.units as { id: number }[]).map(
          (u) => u.id,
        );
        const devices = await addUnits(where, fid);
        const users = await addUsers(where, fid);

        const stats = new Stats();
        const started = Date.now();
        const end = started + MINUTES * 60_000;
        const rss = { start: instances.map(rssMb), end: [] as number[] };
        const load = { start: os.loadavg()[0]!, end: 0 };
        // The generator's own event-loop delay and CPU: a starved client shows here, not in the server.
        const clientLoop = monitorEventLoopDelay({ resolution: 10 });
        clientLoop.enable();
        const clientCpu = process.cpuUsage();
        const feeds = devices.map((device, index) => ({
          url: instances[index % instances.length]!.osmandUrl,
          device,
          index,
        }));
        const [readings] = await Promise.all([
          unitFeeds(feeds, end),
          ...Array.from({ length: USERS }, (_, n) =>
            user(instances[n % instances.length]!.url, users[n]!, n, stats, end, uids),
          ),
        ]);
        stats.merge('GET osmand reading', readings);
        rss.end = instances.map(rssMb);
        load.end = os.loadavg()[0]!;
        clientLoop.disable();
        const clientCpuMs = process.cpuUsage(clientCpu);
        const seconds = (Date.now() - started) / 1000;
        const servers = probes.map((f) => serverFigures(f, started, end));
        console.log(
          [
            table(setup, stats, rss),
            `load average ${load.start.toFixed(1)} at start, ${load.end.toFixed(1)} at end (${os.cpus().length} cores)`,
            `client: loop delay max ${(clientLoop.max / 1e6).toFixed(0)} ms, p99 ${(clientLoop.percentile(99) / 1e6).toFixed(0)} ms; CPU ${((clientCpuMs.user + clientCpuMs.system) / 1e4 / seconds).toFixed(0)} % of a core; feed worker loop delay max ${readings.loop.max.toFixed(0)} ms, p99 ${readings.loop.p99.toFixed(0)} ms`,
            ...servers.map((s, k) => `server ${k}: ${s.text}`),
            failureWindows(readings.failedAt, probes),
          ].join('\n'),
        );

        for (const i of instances) expect(i.child.exitCode, i.output.join('').slice(-3000)).toBeNull();
        // A graceful stop before the checks (a CPU profile of FLEETKEEP_SOAK_NODE_ARGS is written on exit).
        for (const i of instances) await i.stop();
        expect([...stats.routes.keys()]).toEqual(
          expect.arrayContaining([
            'GET osmand reading',
            'sign-in (login + auth)',
            'GET services',
            'POST service',
            'PUT service',
          ]),
        );
        const kept = `server event-loop probes kept in ${probeDir}`;
        // Every failure that is not a time-out is Fleetkeep's: a status, a broken connection, a bad body.
        expect(stats.errors - stats.timeouts, kept).toBe(0);
        // Each unit reported every 10 s, less a period for the phases; a unit waiting on a time-out falls behind.
        const readingsSent = stats.routes.get('GET osmand reading')!.ms.length;
        const readingsWanted = UNITS * Math.floor(MINUTES * 6 - 1);
        const starved = starvedBy(servers);
        if ((stats.timeouts > 0 || readingsSent < readingsWanted) && starved)
          console.warn(
            `load ${setup}: NOT A CLEAN RUN. ${stats.timeouts} time-outs and ${Math.max(0, readingsWanted - readingsSent)} readings short are put down to the machine, not counted as errors: ${starved}; ${kept} (load average ${load.end.toFixed(1)} on ${os.cpus().length} cores). Run it again on a quiet machine for the issue's figures.`,
          );
        else {
          expect(stats.timeouts, `time-outs while the servers had the CPU they asked for; ${kept}`).toBe(0);
          expect(readingsSent).toBeGreaterThanOrEqual(readingsWanted);
        }
        // Kept after a run that was not clean, for a look at the stalls.
        if (stats.errors === 0) fs.rmSync(probeDir, { recursive: true, force: true });
      },
      (MINUTES * 60 + 600) * 1000,
    );
  }
});
