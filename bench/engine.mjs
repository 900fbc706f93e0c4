// Status recomputation for a whole fleet (DESIGN §9): 10,000 units × 10 intervals = 100,000 assignments
// generated straight into a fresh database, then `recompute(ctx, {fleetId})` from the built server
// (packages/server/dist) is timed: the first run creates the Due services (line items, events), the
// second finds nothing to do (idempotent), the minute sweep looks at the time-rule assignments only, a
// third a year later sets overdue flags. Baseline in the same
// run: reading every assignment of the fleet with the raw driver (better-sqlite3 / pg).
// SQLite always; PostgreSQL too when BENCH_DATABASE_URL is set. Knobs: BENCH_ENGINE_UNITS (10000),
// BENCH_ENGINE_DIST (another build of the server, e.g. to compare two builds back to back),
// BENCH_ENGINE_PROFILE (a folder: one V8 CPU profile per timed run, `<database>-<run>.cpuprofile`).
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../scripts/lib.mjs';
import { createPgDatabase } from './lib.mjs';

const DIST = process.env.BENCH_ENGINE_DIST || path.join(ROOT, 'packages/server/dist');
const UNITS = Number(process.env.BENCH_ENGINE_UNITS || 10_000);
const DAY = 86400;
const INTERVALS = [
  { name: 'Oil', cnme: 1, cnmd: 15000, cnmo: 1000 },
  { name: 'Tyres', cnme: 1, cnmd: 40000, cnmo: 2000 },
  { name: 'Brakes', cnme: 1, cnmd: 30000, cnmo: 1500 },
  { name: 'Belt', cnme: 1, cnmd: 90000, cnmo: 5000, de: 1, dd: 5, du: 'y', do: 30 },
  { name: 'Filters', cnme: 1, cnmd: 20000, cnmo: 1000, cnehe: 1, cnehd: 500, cneho: 25 },
  { name: 'Hydraulics', cnehe: 1, cnehd: 1000, cneho: 50 },
  { name: 'Engine', cnehe: 1, cnehd: 250, cneho: 10 },
  { name: 'Coolant', cnehe: 1, cnehd: 2000, cneho: 100, de: 1, dd: 2, du: 'y', do: 30 },
  { name: 'Inspection', de: 1, dd: 1, du: 'y', do: 30 },
  { name: 'Tachograph', de: 1, dd: 24, du: 'm', do: 14 },
];
const NO_RULE = { cnme: 0, cnmd: 0, cnmo: 0, cnehe: 0, cnehd: 0, cneho: 0, de: 0, dd: 0, du: 'd', do: 0 };

/** Deterministic data set: a small linear congruential generator. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function insertMany(db, table, rows, size = 1000) {
  for (let i = 0; i < rows.length; i += size)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + size))
      .execute();
}

/** One account, one fleet, the units, the intervals (2 line items each) and every assignment. */
async function generate(db, at) {
  const random = rng(42);
  const account = await db
    .insertInto('accounts')
    .values({ name: 'engine bench', parent_id: null, active: 1, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fleet = await db
    .insertInto('fleets')
    .values({
      account_id: account.id,
      name: 'engine bench',
      tz: 60 | 0x08000000,
      cur: 'EUR',
      ms: 0,
      fm: 1,
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const units = Array.from({ length: UNITS }, (_, i) => {
    const mileage = Math.round(random() * 300000);
    const hours = Math.round(random() * 8000);
    return {
      account_id: account.id,
      fleet_id: fleet.id,
      name: `bench unit ${i + 1}`,
      device_id: `engine-bench-${i + 1}`,
      unit_type_id: null,
      mileage,
      engine_hours: hours,
      base_mileage: mileage,
      base_engine_hours: hours,
      pulled_mileage: 0,
      pulled_engine_hours: 0,
      joined_at: at,
      props: '{}',
      params: '{}',
      cf: '[]',
      ins: 0,
      created_at: at,
    };
  });
  await insertMany(db, 'units', units, 500);
  const unitRows = await db
    .selectFrom('units')
    .select(['id', 'mileage', 'engine_hours'])
    .where('fleet_id', '=', fleet.id)
    .execute();
  const intervals = [];
  for (const rule of INTERVALS) {
    const row = await db
      .insertInto('intervals')
      .values({ fleet_id: fleet.id, description: '', ...NO_RULE, ...rule, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('interval_line_items')
      .values([
        { interval_id: row.id, position: 0, name: `${rule.name} part`, kind: 2, qty: 1000, cost: 25000 },
        { interval_id: row.id, position: 1, name: `${rule.name} labour`, kind: 1, qty: 1500, cost: 40000 },
      ])
      .execute();
    intervals.push({ id: row.id, ...NO_RULE, ...rule });
  }
  // Baselines spread over one cycle (and a little past it), so that a share of every kind is due now.
  const assignments = [];
  for (const u of unitRows) {
    for (const iv of intervals) {
      const share = random() * 1.1;
      assignments.push({
        fleet_id: fleet.id,
        interval_id: iv.id,
        object_type: 'u',
        object_id: u.id,
        lcnm: iv.cnme ? Math.max(0, u.mileage - share * iv.cnmd) : u.mileage,
        lceh: iv.cnehe ? Math.max(0, u.engine_hours - share * iv.cnehd) : u.engine_hours,
        ltm: iv.de ? at - Math.round(share * 365 * DAY) : at,
        cnt: 0,
        created_at: at,
      });
    }
  }
  await insertMany(db, 'assignments', assignments, 2000);
  return { fleetId: fleet.id, assignments: assignments.length };
}

async function rawRead(target, fleetId) {
  const started = performance.now();
  let n;
  if (target.dialect === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const raw = new SQLite(path.join(target.dataDir, 'fleetkeep.sqlite'), { readonly: true });
    n = raw.prepare('select * from assignments where fleet_id = ?').all(fleetId).length;
    raw.close();
  } else {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    n = (await client.query('select * from assignments where fleet_id = $1', [fleetId])).rowCount;
    await client.end();
  }
  return { ms: performance.now() - started, rows: n };
}

const round = (ms) => Math.round(ms * 10) / 10;
const PROFILE_DIR = process.env.BENCH_ENGINE_PROFILE;

/** Runs `work`, under the V8 CPU profiler when BENCH_ENGINE_PROFILE names a folder. */
async function profiled(name, work) {
  if (!PROFILE_DIR) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    fs.writeFileSync(path.join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

async function runOn(target) {
  const { loadConfig } = await import(path.join(DIST, 'config.js'));
  const { createServer } = await import(path.join(DIST, 'server.js'));
  const { recompute } = await import(path.join(DIST, 'engine/index.js'));
  const config = {
    ...loadConfig({}),
    dataDir: target.dataDir,
    databaseUrl: target.databaseUrl,
    logLevel: 'silent',
  };
  const server = await createServer(config, { logger: false });
  try {
    const at = Math.floor(Date.now() / 1000);
    const t0 = performance.now();
    const { fleetId, assignments } = await generate(server.ctx.db.kysely, at);
    const generateMs = performance.now() - t0;
    // Best of two, so that the baseline is not a cold-cache figure.
    const reads = [await rawRead(target, fleetId), await rawRead(target, fleetId)];
    const baseline = reads[0].ms <= reads[1].ms ? reads[0] : reads[1];
    const timed = (name, when, timeRulesOnly = false) =>
      profiled(`${target.dialect}-${name}`, async () => {
        const started = performance.now();
        const cpu = process.cpuUsage();
        const result = await recompute(server.ctx, { fleetId, timeRulesOnly }, when);
        const used = process.cpuUsage(cpu);
        // This process's CPU (user + system): on SQLite all of the run's work, less sensitive to other load.
        return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, ...result };
      });
    const first = await timed('first', at);
    const second = await timed('second', at);
    // The minute sweep of timer.ts: only the assignments of intervals with a time rule.
    const minute = await timed('minute', at, true);
    const later = await timed('later', at + 365 * DAY);
    if (second.created !== 0 || second.changed !== 0) throw new Error('the second run was not idempotent');
    const figures = {
      database: target.dialect,
      assignments,
      generate_ms: Math.round(generateMs),
      baseline_raw_read_ms: round(baseline.ms),
      first_run_ms: round(first.ms),
      first_run_process_cpu_ms: round(first.cpuMs),
      second_run_process_cpu_ms: round(second.cpuMs),
      services_created: first.created,
      second_run_ms: round(second.ms),
      minute_sweep_ms: round(minute.ms),
      year_later_run_ms: round(later.ms),
      services_changed_year_later: later.changed,
      services_created_year_later: later.created,
      vs_baseline: {
        first_run: round(first.ms / baseline.ms),
        second_run: round(second.ms / baseline.ms),
        minute_sweep: round(minute.ms / baseline.ms),
      },
    };
    console.log(
      `  engine (${target.dialect}): ${assignments} assignments; first run ${figures.first_run_ms} ms (${first.created} created; process CPU ${figures.first_run_process_cpu_ms} ms), idempotent run ${figures.second_run_ms} ms (process CPU ${figures.second_run_process_cpu_ms} ms), minute sweep (time rules) ${figures.minute_sweep_ms} ms, raw read ${figures.baseline_raw_read_ms} ms`,
    );
    return figures;
  } finally {
    await server.close();
  }
}

export const engineRecompute = {
  id: 'engine_recompute',
  title: 'Status recomputation, whole fleet (100,000 assignments)',
  async run() {
    const targets = [{ dialect: 'sqlite' }];
    if (process.env.BENCH_DATABASE_URL)
      targets.push({ dialect: 'postgres', adminUrl: process.env.BENCH_DATABASE_URL });
    const runs = [];
    for (const target of targets) {
      target.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fleetkeep-bench-engine-${target.dialect}-`));
      let pgDb;
      try {
        if (target.adminUrl) {
          pgDb = await createPgDatabase(target.adminUrl);
          target.databaseUrl = pgDb.url;
        }
        runs.push(await runOn(target));
      } finally {
        await pgDb?.drop().catch(() => undefined);
        fs.rmSync(target.dataDir, { recursive: true, force: true });
      }
    }
    return { units: UNITS, intervals: INTERVALS.length, runs };
  },
};

export const benchmarks = [engineRecompute];

// `node bench/engine.mjs` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  engineRecompute.run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
