import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../built-server.js';

/**
 * A PostgreSQL cluster of the suite's own, on its own port and data directory (Debian's PostgreSQL 15,
 * run as the `postgres` system user), so that it can be stopped and started under a running Fleetkeep
 * without touching the shared server at 5432 that other tests use.
 */

const BIN = '/usr/lib/postgresql/15/bin';
const PG_TIMEOUT_S = 60;

export interface PrivatePostgres {
  /** URL of the database `fleetkeep` on it (trust authentication). */
  url: string;
  port: number;
  start(): void;
  /** `pg_ctl stop -m fast`: open connections are ended, as in a restart by the operator. */
  stop(): void;
  /** Stops it (if running) and removes its files. */
  destroy(): void;
}

function asPostgres(command: string, args: string[]): string {
  return execFileSync('runuser', ['-u', 'postgres', '--', path.join(BIN, command), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (process.getuid?.() !== 0)
    throw new Error(
      'The private PostgreSQL cluster needs root (runuser -u postgres); run the soak suite as root.',
    );
  if (!fs.existsSync(path.join(BIN, 'initdb')))
    throw new Error(`${BIN}/initdb is missing: install Debian's postgresql-15 to run this test.`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-pg-'));
  fs.chmodSync(dir, 0o755);
  execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`;
  let running = false;
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/fleetkeep`,
    port,
    start() {
      asPostgres('pg_ctl', [
        '-D',
        data,
        '-o',
        options,
        '-l',
        path.join(dir, 'log'),
        '-w',
        '-t',
        String(PG_TIMEOUT_S),
        'start',
      ]);
      running = true;
    },
    stop() {
      asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', String(PG_TIMEOUT_S), 'stop']);
      running = false;
    },
    destroy() {
      try {
        if (running) cluster.stop();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  try {
    cluster.start();
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    try {
      await admin.query('create database fleetkeep');
    } finally {
      await admin.end();
    }
  } catch (err) {
    cluster.destroy();
    throw err;
  }
  return cluster;
}
