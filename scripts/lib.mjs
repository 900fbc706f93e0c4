// Helpers shared by scripts/start.mjs, scripts/test.mjs and bench/run.mjs. Node built-ins only: these
// run on a fresh clone before anything is installed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const isCI = process.env.CI === 'true' || process.env.CI === '1';

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
export const bold = paint('1');
export const red = paint('31');
export const green = paint('32');
export const yellow = paint('33');

export function log(message) {
  console.log(`[fleetkeep] ${message}`);
}

export function warn(message) {
  console.warn(yellow(`[fleetkeep] WARNING: ${message}`));
}

/** Seconds with one decimal, for step timings. */
export function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Runs a command with inherited output and resolves to its exit code (signals map to 128 + n). A command
 * that cannot be started resolves to 127.
 */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    child.on('error', (err) => {
      console.error(`[fleetkeep] cannot run ${command}: ${err.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + signalNumber(signal) : 1)));
  });
}

/** Runs an npm command (npm is a script on some platforms, so it goes through the npm CLI path). */
export function npm(args, options = {}) {
  return run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, options);
}

export function signalNumber(signal) {
  const numbers = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };
  return numbers[signal] ?? 1;
}

// ---------------------------------------------------------------------------------------------------
// Install

const LOCK = path.join(ROOT, 'package-lock.json');
const MODULES = path.join(ROOT, 'node_modules');
const MARKER = path.join(MODULES, '.fleetkeep-installed');
/** npm's own record of what it installed; rewritten by every npm install or ci. */
const HIDDEN_LOCK = path.join(MODULES, '.package-lock.json');

function lockHash() {
  return createHash('sha256').update(fs.readFileSync(LOCK)).digest('hex');
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Why node_modules must be (re)installed, or undefined when it is current. Current means: the marker
 * holds the hash of package-lock.json, or npm itself installed after the lock file last changed (a
 * developer's `npm install <pkg>`), in which case the marker is refreshed.
 */
export function installReason() {
  if (!fs.existsSync(MODULES)) return 'node_modules is missing';
  const hash = lockHash();
  const marker = fs.existsSync(MARKER) ? fs.readFileSync(MARKER, 'utf8').trim() : '';
  if (marker === hash) return undefined;
  if (mtime(HIDDEN_LOCK) >= mtime(LOCK)) {
    fs.writeFileSync(MARKER, `${hash}\n`);
    return undefined;
  }
  return marker
    ? 'package-lock.json changed since the last install'
    : 'node_modules is older than package-lock.json';
}

/** Installs the locked dependencies when they are missing or stale. Returns the time spent in ms. */
export async function ensureInstalled() {
  const reason = installReason();
  if (!reason) return 0;
  if (fs.lstatSync(MODULES, { throwIfNoEntry: false })?.isSymbolicLink()) {
    // npm ci would empty the directory the link points to, under whoever else uses it.
    throw new Error(`${reason}, but node_modules is a symbolic link: run npm ci where it points`);
  }
  log(`installing dependencies (${reason}): npm ci --no-audit --no-fund`);
  const started = performance.now();
  const code = await npm(['ci', '--no-audit', '--no-fund']);
  if (code !== 0) throw new Error(`npm ci failed with exit code ${code}`);
  fs.writeFileSync(MARKER, `${lockHash()}\n`);
  const ms = performance.now() - started;
  log(`dependencies installed in ${seconds(ms)}`);
  return ms;
}

// ---------------------------------------------------------------------------------------------------
// Build

/** Newest modification time of the files and directories under `entries` (directories included, so
 * that a deleted file counts as a change), skipping build outputs and installed packages. */
export function newest(entries) {
  let max = 0;
  const visit = (p) => {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    max = Math.max(max, stat.mtimeMs);
    if (!stat.isDirectory()) return;
    for (const name of fs.readdirSync(p)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      visit(path.join(p, name));
    }
  };
  for (const e of entries) visit(path.join(ROOT, e));
  return max;
}

/**
 * tsc -b trusts `tsconfig.tsbuildinfo` (kept beside each package's tsconfig, outside `dist`): when `dist`
 * is deleted but the build info stays, it reports "up to date" and emits nothing. Drop such stale files.
 */
export function dropStaleBuildInfo() {
  for (const pkg of ['packages/core', 'packages/server']) {
    const info = path.join(ROOT, pkg, 'tsconfig.tsbuildinfo');
    if (fs.existsSync(info) && !fs.existsSync(path.join(ROOT, pkg, 'dist'))) {
      log(`removing stale ${path.relative(ROOT, info)} (its dist/ is missing)`);
      fs.rmSync(info);
    }
  }
}

/** Inputs of each build part; the part is rebuilt when any of them is newer than its output. */
const BUILD_PARTS = [
  {
    name: 'server',
    output: 'packages/server/dist/main.js',
    inputs: [
      'packages/core/src',
      'packages/core/tsconfig.json',
      'packages/core/package.json',
      'packages/server/src',
      'packages/server/tsconfig.json',
      'packages/server/package.json',
      'tsconfig.base.json',
      'package-lock.json',
    ],
    command: ['run', 'build:ts'],
  },
  {
    name: 'web',
    output: 'packages/web/dist/index.html',
    inputs: [
      'packages/web/src',
      'packages/web/public',
      'packages/web/index.html',
      'packages/web/vite.config.ts',
      'packages/web/tsconfig.json',
      'packages/web/package.json',
      'packages/core/src',
      'package-lock.json',
    ],
    command: ['run', 'build', '-w', '@fleetkeep/web'],
  },
];

/**
 * Builds the parts whose sources are newer than their outputs (`force` builds everything). tsc -b is
 * incremental on its own; the time check only spares a no-change restart the cost of starting the
 * compilers. Returns the time spent in ms.
 */
export async function ensureBuilt({ force = false } = {}) {
  const started = performance.now();
  let built = 0;
  dropStaleBuildInfo();
  for (const part of BUILD_PARTS) {
    const out = mtime(path.join(ROOT, part.output));
    if (!force && out > 0 && out >= newest(part.inputs)) continue;
    log(`building ${part.name}: npm ${part.command.join(' ')}`);
    const code = await npm(part.command);
    if (code !== 0) throw new Error(`build of ${part.name} failed with exit code ${code}`);
    // tsc -b leaves an up-to-date output untouched; mark it current so the next start skips it.
    const now = new Date();
    fs.utimesSync(path.join(ROOT, part.output), now, now);
    built++;
  }
  const ms = performance.now() - started;
  log(built ? `build finished in ${seconds(ms)}` : 'build is up to date');
  return ms;
}
