// `npm run bench` (DESIGN §9): builds if needed, starts the built server on a fresh database, runs every
// benchmark beside its baseline measured in the same run, prints a table and writes bench/results.json.
//
// SQLite always; PostgreSQL too when BENCH_DATABASE_URL is set (a fresh database is created beside the
// one it names and dropped afterwards). Knobs: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, 2),
// BENCH_CONNECTIONS (10), BENCH_ONLY (comma-separated benchmark ids), BENCH_KEEP_DATA=1, BENCH_RESULTS,
// BENCH_NO_BUILD=1, BENCH_SERVER_ARGS (lib.mjs), and
// `--quick` (or BENCH_QUICK=1): small data sets and short runs (lib.mjs QUICK_SIZES), figures labelled
// quick. The server's resident memory is recorded at start and after every benchmark (DESIGN §9).
//
// Adding a benchmark: export `{id, title, prepare?, run, describe?}` from a module and list it below.
// - Server benchmarks get `ctx = {url, password, connections, dialect, pid, cpuMs, teltonikaPort}`; `prepare(db)` runs
//   while the server is stopped, with `db.exec(sql)` on the server's database (for generated data sets).
//   `describe(figures)` (optional) gives the line printed after the run instead of req/s and latency.
//   A data-set size should come from an environment knob with a quick size in lib.mjs QUICK_SIZES.
// - Static benchmarks (`run()` only) look at build outputs and run once per `npm run bench`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bold, ensureBuilt, ensureInstalled, green, ROOT, red, yellow } from '../scripts/lib.mjs';

// BENCH_RESULTS: another file for the figures (a quick run beside others' keeps bench/results.json).
const RESULTS = process.env.BENCH_RESULTS
  ? path.resolve(process.env.BENCH_RESULTS)
  : path.join(ROOT, 'bench/results.json');
const PASSWORD = 'bench-demo-password';

async function loadModules() {
  // Imported after the install step: they need autocannon and the database drivers.
  const lib = await import('./lib.mjs');
  // Before the modules below read their data-set knobs (at import time).
  const quickSizes = lib.applyQuickSizes();
  const http = await import('./http-api.mjs');
  const web = await import('./web-bundle.mjs');
  return {
    lib,
    quickSizes,
    server: [
      ...http.benchmarks,
      ...(await import('./services.mjs')).benchmarks,
      // workshop lists: 10,000 issues and 10,000 work orders of the demo fleet (workshop.mjs).
      ...(await import('./workshop.mjs')).benchmarks,
      // After services.mjs: it renders the list that benchmark's data set fills.
      ...(await import('./render.mjs')).benchmarks,
      // statistics: a fleet of its own (10,000 units × 365 days of counter history).
      ...(await import('./statistics.mjs')).benchmarks,
      // writes under reads: after the reads (it adds services), before the imports (whose domain events
      // the server is still working through afterwards).
      ...(await import('./writes.mjs')).benchmarks,
      // websocket fan-out: its 1,000 sockets are closed again before the next benchmark.
      ...(await import('./ws.mjs')).benchmarks,
      // deliveries: status change → webhook receipt, after the reads (it adds services).
      ...(await import('./deliveries.mjs')).benchmarks,
      // imports: a 10,000-row services import, preview and save, after the reads (it adds services).
      ...(await import('./imports.mjs')).benchmarks,
      ...(await import('./ingest.mjs')).benchmarks,
      // Teltonika over TCP: 1,000 trackers of the device simulator, last (it adds 1,000 units).
      ...(await import('./teltonika.mjs')).benchmarks,
    ],
    statics: [...web.benchmarks, ...(await import('./engine.mjs')).benchmarks],
  };
}

function selected(list) {
  const only = (process.env.BENCH_ONLY || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // The baseline always runs: every ratio needs it; so does what a chosen benchmark `requires`.
  const wanted = new Set(only);
  for (const b of list) if (wanted.has(b.id)) for (const r of b.requires ?? []) wanted.add(r);
  return only.length ? list.filter((b) => b.baseline || wanted.has(b.id)) : list;
}

/** The server's database for `prepare` steps, opened while the server is stopped. */
async function openDb(target) {
  if (target.dialect === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(path.join(target.dataDir, 'fleetkeep.sqlite'));
    return { dialect: 'sqlite', exec: async (sql) => db.exec(sql), close: async () => db.close() };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  return { dialect: 'postgres', exec: (sql) => client.query(sql), close: () => client.end() };
}

function fail(bench, err) {
  return {
    id: bench.id,
    title: bench.title,
    ok: false,
    server_rss_mb: null,
    error: err instanceof Error ? err.message : String(err),
  };
}

/** Runs the server benchmarks on one database. */
async function runTarget(target, benchmarks, lib) {
  const started = performance.now();
  const out = await runOn(target, benchmarks, lib);
  out.duration_s = Math.round((performance.now() - started) / 100) / 10;
  return out;
}

async function runOn(target, benchmarks, lib) {
  const out = {
    database: target.dialect,
    startup_ms: {},
    shutdown_ms: null,
    rss_mb: {},
    benchmarks: [],
  };
  const logFile = path.join(target.dataDir, 'server.log');
  const env = {
    DATA_DIR: target.dataDir,
    FLEETKEEP_DEMO_PASSWORD: PASSWORD,
    DATABASE_URL: target.databaseUrl ?? '',
    // The Teltonika benchmark's trackers connect here (lib.mjs starts the server with the port off).
    TELTONIKA_PORT: String(await lib.freePort()),
  };
  console.log(bold(`\n▶ ${target.dialect}`));
  let server;
  try {
    // Cold start: empty database, so migrations and the demo seed are part of it.
    server = await lib.startServer({ env, logFile });
    out.startup_ms.cold = Math.round(server.startupMs);
    out.rss_mb.cold_start = server.rssMb();
    console.log(
      `  start-up on an empty database (migrate + seed): ${out.startup_ms.cold} ms, RSS ${out.rss_mb.cold_start} MiB`,
    );
    const stopped = await server.stop();
    out.shutdown_ms = Math.round(stopped.ms);
    if (stopped.code !== 0)
      throw new lib.BenchError(`server exited with ${stopped.code ?? stopped.signal} on SIGTERM`);

    const preparing = benchmarks.filter((b) => b.prepare);
    if (preparing.length) {
      const db = await openDb(target);
      try {
        for (const b of preparing) await b.prepare(db);
      } finally {
        await db.close();
      }
    }

    server = await lib.startServer({ env, logFile });
    out.startup_ms.warm = Math.round(server.startupMs);
    out.rss_mb.start = server.rssMb();
    console.log(`  start-up on an existing database: ${out.startup_ms.warm} ms, RSS ${out.rss_mb.start} MiB`);
    const idle = await lib.waitUntilIdle(server);
    out.settle_ms = idle.waitedMs;
    console.log(
      `  ${idle.settled ? 'idle' : yellow('not idle')} after ${idle.waitedMs} ms (start-up work done before the baseline)`,
    );
  } catch (err) {
    await server?.stop();
    out.error = err instanceof Error ? err.message : String(err);
    out.benchmarks = benchmarks.map((b) => fail(b, `server did not start: ${out.error}`));
    console.log(red(`  ✘ ${out.error}`));
    return out;
  }

  const ctx = {
    url: server.url,
    password: PASSWORD,
    connections: lib.settings.connections,
    dialect: target.dialect,
    pid: server.pid,
    cpuMs: server.cpuMs,
    teltonikaPort: Number(env.TELTONIKA_PORT),
  };
  for (const b of benchmarks) {
    process.stdout.write(`  ${b.title} … `);
    try {
      const figures = await b.run(ctx);
      const rss = { server_rss_mb: server.rssMb(), server_peak_rss_mb: server.peakRssMb() };
      out.benchmarks.push({
        id: b.id,
        title: b.title,
        ok: true,
        baseline: b.baseline === true,
        ...(lib.QUICK ? { quick: true } : {}),
        ...figures,
        ...rss,
      });
      console.log(
        green(
          `${
            b.describe
              ? b.describe(figures)
              : figures.render
                ? `${figures.render.list.median_ms} ms median (baseline screen ${figures.render.baseline.median_ms} ms, ×${figures.vs_baseline.time}); search ${figures.search.median_ms} ms`
                : `${figures.requests_per_sec} req/s, p50 ${figures.latency_ms.p50} ms, p99 ${figures.latency_ms.p99} ms`
          }; RSS ${rss.server_rss_mb} MiB`,
        ),
      );
    } catch (err) {
      out.benchmarks.push(fail(b, err));
      console.log(red(`FAILED: ${err instanceof Error ? err.message : String(err)}`));
      if (!(err instanceof lib.BenchError)) console.error(err);
    }
  }
  out.rss_mb.end = server.rssMb();
  out.rss_mb.peak = server.peakRssMb();
  const stopped = await server.stop();
  if (stopped.code !== 0) out.error = `server exited with ${stopped.code ?? stopped.signal} on SIGTERM`;

  // Ratios against the baseline of this run (DESIGN §9).
  const base = out.benchmarks.find((r) => r.baseline && r.ok);
  for (const r of out.benchmarks) {
    // Browser timings carry their own baseline (a screen without data, same browser and run).
    if (!r.ok || !base || r === base || r.render) continue;
    r.vs_baseline = {
      throughput: lib.round(r.requests_per_sec / base.requests_per_sec, 3),
      p50_latency: base.latency_ms.p50 > 0 ? lib.round(r.latency_ms.p50 / base.latency_ms.p50, 2) : null,
      p99_latency: base.latency_ms.p99 > 0 ? lib.round(r.latency_ms.p99 / base.latency_ms.p99, 2) : null,
      // The server's CPU time per request against the baseline's: steadier than req/s on a busy machine.
      cpu_per_request:
        r.server_cpu_us_per_request > 0 && base.server_cpu_us_per_request > 0
          ? lib.round(r.server_cpu_us_per_request / base.server_cpu_us_per_request, 2)
          : null,
    };
  }
  return out;
}

function gitInfo() {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return { commit, dirty };
  } catch {
    return null;
  }
}

function printTable(results) {
  const rows = [
    [
      'database',
      'benchmark',
      'req/s',
      'avg ms',
      'p50 ms',
      'p99 ms',
      '× base req/s',
      '× base p99',
      'CPU µs/req',
      'RSS MiB',
    ],
  ];
  for (const run of results.runs) {
    for (const r of run.benchmarks) {
      if (r.ok && r.render) continue;
      rows.push(
        r.ok
          ? [
              run.database,
              r.title,
              String(r.requests_per_sec),
              r.latency_ms.avg.toFixed(2),
              String(r.latency_ms.p50),
              String(r.latency_ms.p99),
              r.vs_baseline ? r.vs_baseline.throughput.toFixed(3) : '1',
              r.vs_baseline?.p99_latency != null
                ? r.vs_baseline.p99_latency.toFixed(2)
                : r.baseline
                  ? '1'
                  : '-',
              String(r.server_cpu_us_per_request ?? '-'),
              String(r.server_rss_mb ?? '-'),
            ]
          : [run.database, r.title, 'FAILED', '', '', '', '', '', '', ''],
      );
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(bold(`\nResults${results.quick ? ' (quick mode: small data sets, short runs)' : ''}`));
  rows.forEach((r, n) => {
    const line = r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
    console.log(`  ${n === 0 ? bold(line) : r[2] === 'FAILED' ? red(line) : line}`);
    if (n === 0) console.log(`  ${widths.map((w) => '─'.repeat(w)).join('  ')}`);
  });
  for (const run of results.runs) {
    const s = run.startup_ms;
    console.log(
      `  ${run.database} (${run.duration_s ?? '?'} s): start-up ${s.cold ?? '?'} ms on an empty database (migrate + seed), ${s.warm ?? '?'} ms on an existing one; shutdown ${run.shutdown_ms ?? '?'} ms; server RSS ${run.rss_mb?.cold_start ?? '?'} MiB after the cold start, ${run.rss_mb?.start ?? '?'} MiB at the start of the benchmarks, ${run.rss_mb?.end ?? '?'} MiB after the last, peak ${run.rss_mb?.peak ?? '?'} MiB`,
    );
    for (const r of run.benchmarks) {
      if (!r.ok) console.log(red(`  ${run.database} ${r.id} FAILED: ${r.error}`));
      else if (r.render)
        console.log(
          `  ${run.database}: ${r.title}: median ${r.render.list.median_ms} ms over ${r.render.runs} loads, against ${r.render.baseline.median_ms} ms for a screen without data (×${r.vs_baseline.time}); a search over its rows ${r.search.median_ms} ms median, 250 ms of it the search field's pause (×${r.vs_baseline.search} of that screen); the list's reply ${Math.round(r.reply_bytes.wire / 1024)} KiB on the wire, ${Math.round(r.reply_bytes.decoded / 1024)} KiB decoded`,
        );
    }
  }
  for (const s of results.static) {
    if (!s.ok) console.log(red(`  ${s.id} FAILED: ${s.error}`));
    else if (s.id === 'web_bundle') {
      console.log(
        `  web bundle: initial JS ${(s.initial_js_bytes / 1024).toFixed(1)} KiB, ${(s.initial_js_gzip / 1024).toFixed(1)} KiB gzip (all JS: ${s.js_files} files, ${(s.all_js_gzip / 1024).toFixed(1)} KiB gzip)`,
      );
    }
  }
}

async function main() {
  const t0 = performance.now();
  await ensureInstalled();
  // BENCH_NO_BUILD=1: run the built server as it is (e.g. while the sources do not compile).
  if (process.env.BENCH_NO_BUILD !== '1') await ensureBuilt();
  const { lib, quickSizes, server, statics } = await loadModules();
  const serverBenchmarks = selected(server);
  const staticBenchmarks = selected(statics);

  const results = {
    generated_at: new Date().toISOString(),
    // Quick-mode figures are a smoke test of the benchmarks on small data sets, not measurements.
    mode: lib.QUICK ? 'quick' : 'full',
    quick: lib.QUICK,
    ...(lib.QUICK ? { quick_sizes: quickSizes } : {}),
    git: gitInfo(),
    machine: {
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? null,
      memory_gb: Math.round(os.totalmem() / 2 ** 30),
      note: 'load generator and server share this machine',
    },
    settings: { ...lib.settings, tool: 'autocannon' },
    static: [],
    runs: [],
  };

  for (const b of staticBenchmarks) {
    try {
      results.static.push({
        id: b.id,
        title: b.title,
        ok: true,
        ...(lib.QUICK ? { quick: true } : {}),
        ...(await b.run()),
      });
    } catch (err) {
      results.static.push(fail(b, err));
    }
  }

  const targets = [{ dialect: 'sqlite' }];
  if (process.env.BENCH_DATABASE_URL)
    targets.push({ dialect: 'postgres', adminUrl: process.env.BENCH_DATABASE_URL });
  else console.log(yellow('BENCH_DATABASE_URL is not set: PostgreSQL is not benchmarked'));

  for (const target of targets) {
    target.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fleetkeep-bench-${target.dialect}-`));
    let pgDb;
    try {
      if (target.adminUrl) {
        pgDb = await lib.createPgDatabase(target.adminUrl);
        target.databaseUrl = pgDb.url;
      }
      results.runs.push(await runTarget(target, serverBenchmarks, lib));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      results.runs.push({
        database: target.dialect,
        startup_ms: {},
        error: message,
        benchmarks: serverBenchmarks.map((b) => fail(b, message)),
      });
    } finally {
      if (process.env.BENCH_KEEP_DATA === '1') console.log(`  data kept in ${target.dataDir}`);
      else {
        await pgDb?.drop().catch((err) => console.warn(`could not drop the bench database: ${err.message}`));
        fs.rmSync(target.dataDir, { recursive: true, force: true });
      }
    }
  }

  results.duration_s = Math.round((performance.now() - t0) / 100) / 10;
  fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  printTable(results);
  const failed = [...results.static, ...results.runs.flatMap((r) => r.benchmarks)].filter((b) => !b.ok);
  console.log(`\nWrote ${path.relative(process.cwd(), RESULTS) || RESULTS} in ${results.duration_s} s`);
  if (failed.length) {
    console.log(
      red(`${failed.length} benchmark(s) failed: ${[...new Set(failed.map((f) => f.id))].join(', ')}`),
    );
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(red(err instanceof Error ? (err.stack ?? err.message) : String(err)));
  process.exitCode = 1;
});
