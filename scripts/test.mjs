// `npm test`: install what is missing, make sure the test services are there, then run every suite,
// failing fast. The last line printed is `tests: <n> passed, <m> failed` (read by CI tooling).
// `npm run test:quick` (--quick): the inner loop, unit tests and the HTTP suite on SQLite only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  bold,
  dropStaleBuildInfo,
  ensureInstalled,
  green,
  isCI,
  log,
  npm,
  ROOT,
  red,
  run,
  seconds,
  yellow,
} from './lib.mjs';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const CHROMIUM = '/usr/bin/chromium';
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-test-report-'));
const quick = process.argv.includes('--quick');

const totals = { passed: 0, failed: 0, skipped: 0 };
/** @type {{name: string, status: 'passed'|'failed'|'skipped', ms: number, note?: string}[]} */
const steps = [];
const warnings = [];
/** Names of failed and retried-then-passed tests, repeated in the summary (CI keeps only the log's tail). */
const failedTests = [];
const flakyTests = [];
const startedAt = performance.now();

function header(title) {
  console.log(`\n${bold(`━━━ ${title} ${'━'.repeat(Math.max(3, 96 - title.length))}`)}`);
}

function loudWarning(message) {
  warnings.push(message);
  const bar = '!'.repeat(100);
  console.warn(yellow(`\n${bar}\n!! ${message}\n${bar}\n`));
}

// ---------------------------------------------------------------------------------------------------
// Preparation: dependencies, Chromium, PostgreSQL

async function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return `${CHROMIUM} present`;
  const fail = (why) => {
    const message = `Chromium is not installed (${why}); browser suites cannot run.`;
    if (isCI) throw new Error(message);
    loudWarning(message);
    return 'missing';
  };
  if (process.platform !== 'linux' || !fs.existsSync('/usr/bin/apt-get')) return fail('no apt-get here');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) =>
    sudo.length
      ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...args], { env })
      : run('apt-get', args, { env });
  log('installing Debian chromium for the browser suites: apt-get update && apt-get install -y chromium');
  if ((await apt(['update', '-qq'])) !== 0) return fail('apt-get update failed');
  if ((await apt(['install', '-y', '-qq', 'chromium'])) !== 0) return fail('apt-get install chromium failed');
  if (!fs.existsSync(CHROMIUM)) return fail(`apt-get installed chromium but ${CHROMIUM} is absent`);
  return `${CHROMIUM} installed`;
}

function isLocalHost(host) {
  return ['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(host);
}

/** Connects once; creates the database of the URL when PostgreSQL runs but it does not exist. */
async function pgProbe(pg, url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (err) {
    if (err?.code === '3D000') {
      const adminUrl = new URL(url);
      const name = decodeURIComponent(adminUrl.pathname.slice(1));
      adminUrl.pathname = '/postgres';
      const admin = new pg.Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 3000 });
      try {
        await admin.connect();
        await admin.query(`create database "${name.replaceAll('"', '""')}"`);
        log(`created database ${name}`);
        return undefined;
      } catch (inner) {
        return inner?.message ?? String(inner);
      } finally {
        await admin.end().catch(() => undefined);
      }
    }
    return err?.message ?? String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Makes PostgreSQL reachable at TEST_DATABASE_URL, starting a local cluster if needed. */
async function ensurePostgres() {
  const { default: pg } = await import('pg');
  let error = await pgProbe(pg, TEST_DATABASE_URL);
  if (!error) return undefined;
  log(`PostgreSQL is not reachable at ${redact(TEST_DATABASE_URL)}: ${error}`);
  const host = new URL(TEST_DATABASE_URL).hostname;
  if (isLocalHost(host) && fs.existsSync('/etc/postgresql')) {
    let started = 0;
    for (const version of fs.readdirSync('/etc/postgresql')) {
      log(`starting the local cluster: pg_ctlcluster --skip-systemctl-redirect ${version} main start`);
      try {
        execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], {
          stdio: 'inherit',
        });
        started++;
      } catch (err) {
        // Also the answer when the cluster already runs: then waiting will not help.
        log(`pg_ctlcluster: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const deadline = Date.now() + (started > 0 ? 30_000 : 0);
    do {
      error = await pgProbe(pg, TEST_DATABASE_URL);
      if (!error) {
        log('PostgreSQL is up');
        return undefined;
      }
      await new Promise((r) => setTimeout(r, 500));
    } while (Date.now() < deadline);
  }
  return error;
}

function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

// ---------------------------------------------------------------------------------------------------
// Steps

class StepFailed extends Error {}

/**
 * Runs a step's function and times it. `spawnOptions` go to the commands it runs (an output file when
 * steps run side by side). Resolves to the step's record; never throws.
 */
async function runStep(name, fn, spawnOptions = {}) {
  const started = performance.now();
  let code;
  let note;
  try {
    const result = await fn(spawnOptions);
    code = typeof result === 'number' ? result : (result?.code ?? 0);
    note = typeof result === 'object' ? result?.note : undefined;
  } catch (err) {
    console.error(red(`${name}: ${err instanceof Error ? err.message : String(err)}`));
    code = 1;
  }
  return { name, status: code === 0 ? 'passed' : 'failed', ms: performance.now() - started, note };
}

function record(result) {
  steps.push(result);
  const { name, status, ms, note } = result;
  const mark = status === 'passed' ? green('✔') : red('✘');
  console.log(`${mark} ${name} ${status} in ${seconds(ms)}${note ? ` (${note})` : ''}`);
}

/** Runs one step with a header and its time; a non-zero code stops the run. */
async function step(name, fn) {
  header(name);
  const result = await runStep(name, fn);
  record(result);
  if (result.status !== 'passed') throw new StepFailed(name);
}

/**
 * Runs lanes of steps at the same time, the steps of one lane in order (a lane stops at its first
 * failure). Each step's output goes to a file, printed under the step's header once every lane is done,
 * so that the log reads as if they had run one after the other. For CPU-light or differently bound work
 * only: on 2 cores two compilers side by side gain little.
 */
async function together(lanes) {
  const started = performance.now();
  const done = await Promise.all(
    lanes.map(async (lane) => {
      const results = [];
      for (const [name, fn] of lane) {
        const file = path.join(reportDir, `${name.replace(/\W+/g, '-')}.log`);
        const fd = fs.openSync(file, 'w');
        try {
          results.push({ ...(await runStep(name, fn, { stdio: ['ignore', fd, fd] })), file });
        } finally {
          fs.closeSync(fd);
        }
        if (results.at(-1).status !== 'passed') break;
      }
      return results;
    }),
  );
  let failed;
  for (const result of done.flat()) {
    header(result.name);
    process.stdout.write(fs.readFileSync(result.file));
    const { file: _file, ...rest } = result;
    record(rest);
    if (rest.status !== 'passed') failed ??= rest.name;
  }
  log(`${lanes.length} lanes side by side took ${seconds(performance.now() - started)}`);
  if (failed) throw new StepFailed(failed);
}

function skipStep(name, why) {
  header(name);
  steps.push({ name, status: 'skipped', ms: 0, note: why });
  console.log(yellow(`- ${name} SKIPPED: ${why}`));
}

/** Adds a vitest JSON report to the totals; returns a short note. */
function countVitest(file, exitCode) {
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // No report: vitest did not get as far as running tests.
    if (exitCode !== 0) totals.failed += 1;
    return 'no test report';
  }
  const passed = report.numPassedTests ?? 0;
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed') failedTests.push(`${path.relative(ROOT, file.name)} › ${t.fullName}`);
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failedTests.push(
        `${path.relative(ROOT, file.name)} (did not load: ${String(file.message ?? '').slice(0, 200)})`,
      );
    }
  }
  let failed = report.numFailedTests ?? 0;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A test file that fails to load has no failed test but must still count as a failure.
  if (exitCode !== 0 && failed === 0) failed = Math.max(1, report.numFailedTestSuites ?? 0);
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

/** Adds a Playwright JSON report (stats block) to the totals, when the e2e suite wrote one. */
function countPlaywright(file) {
  if (!fs.existsSync(file)) return undefined;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { stats } = report;
  const walk = (suite, trail) => {
    const here = suite.title ? [...trail, suite.title] : trail;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const name = [...here, spec.title].join(' › ');
        const message = test.results?.find((r) => r.error)?.error?.message ?? '';
        // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the reporter's colour codes
        const firstError = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0];
        if (test.status === 'unexpected') failedTests.push(`${name}: ${firstError.slice(0, 200)}`);
        else if (test.status === 'flaky') flakyTests.push(`${name}: ${firstError.slice(0, 200)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  const passed = (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  const failed = stats?.unexpected ?? 0;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += stats?.skipped ?? 0;
  return `${passed} passed, ${failed} failed${stats?.skipped ? `, ${stats.skipped} skipped` : ''}`;
}

async function vitest(project, label, env = {}, spawnOptions = {}) {
  const out = path.join(reportDir, `${label}.json`);
  const code = await run(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    { ...spawnOptions, env: { ...process.env, ...env } },
  );
  return { code, note: countVitest(out, code) };
}

function hasScript(packageJson, name) {
  try {
    return Boolean(JSON.parse(fs.readFileSync(path.join(ROOT, packageJson), 'utf8')).scripts?.[name]);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------

function summary(ok) {
  header('Summary');
  const width = Math.max(...steps.map((s) => s.name.length));
  for (const s of steps) {
    const mark =
      s.status === 'passed' ? green('passed ') : s.status === 'failed' ? red('FAILED ') : yellow('SKIPPED');
    console.log(
      `  ${s.name.padEnd(width)}  ${mark}  ${seconds(s.ms).padStart(8)}${s.note ? `  ${s.note}` : ''}`,
    );
  }
  console.log(`  total ${seconds(performance.now() - startedAt)}`);
  for (const name of flakyTests) console.warn(yellow(`FLAKY (failed once, passed on retry): ${name}`));
  for (const name of failedTests) console.log(red(`FAILED TEST: ${name}`));
  for (const w of warnings) console.warn(yellow(`WARNING: ${w}`));
  if (totals.skipped > 0) console.warn(yellow(`WARNING: ${totals.skipped} tests were skipped`));
  if (!ok) console.log(red(bold('FAILED')));
  else if (warnings.length > 0 || flakyTests.length > 0)
    console.log(yellow(bold('PASSED WITH WARNINGS (see above)')));
  else console.log(green(bold('ALL GREEN')));
  // The very last line, read by CI tooling: keep it plain.
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`);
}

async function main() {
  log(
    `npm ${quick ? 'run test:quick (unit and HTTP on SQLite)' : 'test'}${isCI ? ' (CI=true: missing services fail the run)' : ''}`,
  );

  await step('install dependencies', async () => {
    const ms = await ensureInstalled();
    return { code: 0, note: ms ? `npm ci ${seconds(ms)}` : 'up to date' };
  });

  // tsc -b emits packages/*/dist, which the multi-instance HTTP tests and the restore unit test start as
  // processes of their own: it comes before the suites (the typecheck's own tsc -b then has nothing to do).
  await step('compile server (tsc -b)', () => {
    dropStaleBuildInfo();
    return npm(['run', '--silent', 'build:ts']);
  });

  if (quick) {
    await step('unit tests', () => vitest('unit', 'unit'));
    await step('http tests on SQLite', () => vitest('http', 'http-sqlite', { TEST_DB: 'sqlite' }));
    return;
  }

  await step('browser (Debian chromium)', async () => ({ code: 0, note: await ensureChromium() }));
  let pgError;
  await step('PostgreSQL', async () => {
    pgError = await ensurePostgres();
    if (pgError && isCI) {
      console.error(red(`PostgreSQL is unreachable at ${redact(TEST_DATABASE_URL)}: ${pgError}`));
      return 1;
    }
    if (pgError) {
      loudWarning(
        `PostgreSQL is unreachable at ${redact(TEST_DATABASE_URL)} (${pgError}): the PostgreSQL suite is SKIPPED. Set TEST_DATABASE_URL or start PostgreSQL; under CI=true this fails the run.`,
      );
      return { code: 0, note: 'unreachable' };
    }
    return { code: 0, note: redact(TEST_DATABASE_URL) };
  });

  // The type checkers and the linter are one process each: beside the unit tests they use the second core.
  await together([
    [
      ['typecheck', (o) => npm(['run', '--silent', 'typecheck'], o)],
      ['lint', (o) => npm(['run', '--silent', 'lint'], o)],
    ],
    [['unit tests', (o) => vitest('unit', 'unit', {}, o)]],
  ]);
  await step('http tests on SQLite', () => vitest('http', 'http-sqlite', { TEST_DB: 'sqlite' }));
  if (pgError) {
    skipStep('http tests on PostgreSQL', 'PostgreSQL unreachable');
  } else {
    await step('http tests on PostgreSQL', () =>
      vitest('http', 'http-postgres', { TEST_DB: 'postgres', TEST_DATABASE_URL }),
    );
  }
  await step('web build', () => npm(['run', 'build', '-w', '@fleetkeep/web']));
  if (hasScript('e2e/package.json', 'test')) {
    await step('browser tests (e2e)', async () => {
      const out = path.join(reportDir, 'e2e.json');
      // The e2e suite may write a Playwright JSON report here so that its tests are counted.
      const code = await npm(['run', 'test:e2e'], {
        env: { ...process.env, FLEETKEEP_TEST_REPORT: out, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
      });
      let note = countPlaywright(out);
      if (note === undefined) {
        note = 'no JSON report';
        if (code !== 0) totals.failed += 1;
      }
      return { code, note };
    });
  } else {
    skipStep('browser tests (e2e)', 'e2e has no test script yet');
  }
}

main()
  .then(() => {
    summary(true);
  })
  .catch((err) => {
    if (!(err instanceof StepFailed)) console.error(red(err instanceof Error ? err.stack : String(err)));
    summary(false);
    process.exitCode = 1;
  })
  .finally(() => {
    fs.rmSync(reportDir, { recursive: true, force: true });
  });
