// `npm start`: install what is missing, build what changed, then run the server (DESIGN §8).
// Node built-ins only, so that it works on a fresh clone.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, ROOT, red, signalNumber } from './lib.mjs';

async function main() {
  await ensureInstalled();
  await ensureBuilt({ force: process.argv.includes('--rebuild') });

  const env = { ...process.env };
  // The demo is on under `npm start` unless the operator says otherwise (FLEETKEEP_DEMO=0).
  env.FLEETKEEP_DEMO ??= '1';

  const child = spawn(process.execPath, [path.join(ROOT, 'packages/server/dist/main.js')], {
    cwd: process.cwd(),
    env,
    stdio: 'inherit',
  });

  // A terminal's Ctrl-C reaches the whole process group; a `kill <pid>` reaches only this process.
  // Either way the server gets the signal once more and shuts down gracefully (it ignores repeats).
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => forward(signal));
  // `kill <pid of npm>` ends npm and its shell but not this process (npm signals only its direct
  // child): when we are orphaned, stop the server as if SIGTERM had arrived.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) forward('SIGTERM');
  }, 500).unref();

  child.on('error', (err) => {
    console.error(red(`[fleetkeep] cannot start the server: ${err.message}`));
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 128 + signalNumber(signal) : 1));
  });
}

main().catch((err) => {
  console.error(red(`[fleetkeep] ${err instanceof Error ? err.message : String(err)}`));
  process.exit(1);
});
