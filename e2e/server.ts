import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Starts and stops the built server (`packages/server/dist/main.js`) for the browser journeys. */

export const ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER_MAIN = path.join(ROOT, 'packages/server/dist/main.js');
export const WEB_INDEX = path.join(ROOT, 'packages/web/dist/index.html');
export const DEMO_PASSWORD = 'e2e-demo-password';

export interface ServerInfo {
  port: number;
  dataDir: string;
  /** The file holding the pid of the running server, so that whoever started it last can be stopped. */
  pidFile: string;
}

/**
 * The demo server of this Playwright worker. The global setup starts one server (own port, own data
 * directory and SQLite file) per parallel worker slot; a worker uses the one of its slot, so that a
 * journey that stops its server (zz-connection) never touches another worker's journeys.
 */
export function serverInfo(): ServerInfo {
  const text = process.env.FLEETKEEP_E2E_SERVERS;
  if (!text) throw new Error('FLEETKEEP_E2E_SERVERS is not set: run the suite through playwright.config.ts');
  const servers = JSON.parse(text) as ServerInfo[];
  // Playwright sets TEST_PARALLEL_INDEX in each worker (0 … workers-1); a worker restarted after a
  // failure keeps its slot, and so its server and data.
  const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0) || 0;
  const info = servers[slot % servers.length];
  if (!info) throw new Error('FLEETKEEP_E2E_SERVERS lists no server');
  return info;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** How long a starting server may take to answer: the global setup starts one per worker at once. */
const START_LIMIT_MS = 60_000;

async function waitUntilUp(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_LIMIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/ping`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not answer /api/ping within ${START_LIMIT_MS / 1000} s`);
}

export async function startServer(info: ServerInfo): Promise<ChildProcess> {
  const log = fs.openSync(path.join(info.dataDir, 'server.log'), 'a');
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(info.port),
      DATA_DIR: info.dataDir,
      FLEETKEEP_DEMO: '1',
      FLEETKEEP_DEMO_PASSWORD: DEMO_PASSWORD,
      OSMAND_PORT: '0',
      TELTONIKA_PORT: '0',
      FLEETKEEP_SIMULATOR_MS: '3600000',
      DOCS_URL: 'https://docs.example/{lang}/',
      DATABASE_URL: '',
      // The journeys' webhook and bot receivers listen on this machine's loopback.
      FLEETKEEP_OUTBOUND_ALLOW: 'external,loopback',
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  fs.writeFileSync(info.pidFile, String(child.pid));
  await waitUntilUp(info.port, child);
  return child;
}

/** Stops the server whose pid is recorded, and waits until it is gone. */
export async function stopServer(info: ServerInfo): Promise<void> {
  if (!fs.existsSync(info.pidFile)) return;
  const pid = Number(fs.readFileSync(info.pidFile, 'utf8'));
  fs.rmSync(info.pidFile);
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  process.kill(pid, 'SIGKILL');
}

/** A server of its own on an EMPTY database (no demo), for journeys that start from nothing. */
export interface EmptyServer {
  base: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts a server on a fresh data directory with `FLEETKEEP_DEMO=0`, beside the suite's demo server. */
export async function startEmptyServer(prefix: string): Promise<EmptyServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fleetkeep-e2e-${prefix}-`));
  const port = await freePort();
  const log = fs.openSync(path.join(dataDir, 'server.log'), 'a');
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      FLEETKEEP_DEMO: '0',
      OSMAND_PORT: '0',
      TELTONIKA_PORT: '0',
      DATABASE_URL: '',
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  await waitUntilUp(port, child);
  return {
    base: `http://127.0.0.1:${port}`,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
