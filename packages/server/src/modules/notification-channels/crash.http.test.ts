import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { DeliveryWire } from '@fleetkeep/core';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_MAIN, freePort } from '../../test/built-server.js';
import { Client, createPgDatabase, DEMO_PASSWORD, TEST_DB } from '../../test/harness.js';

/**
 * kill -9 of the server between send and record: the built server (`npm start`) sends
 * a webhook and is killed by SIGKILL while the receiver holds its answer, so the send happened and its
 * result was never recorded. A new process on the same database sends that delivery again once its
 * lease has run out (here moved back by hand, as 15 minutes passing), under the same delivery id: the
 * event is not lost, the log keeps one row for it (sent, 2 attempts), and a receiver that keys on
 * `X-Fleetkeep-Delivery` (docs/operations.md "Webhooks") sees it once. Nothing else is sent twice.
 */

interface Instance {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [BUILT_MAIN], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      OSMAND_PORT: '0',
      TELTONIKA_PORT: '0',
      FLEETKEEP_DEMO: '1',
      FLEETKEEP_DEMO_PASSWORD: DEMO_PASSWORD,
      FLEETKEEP_SIMULATOR_MS: '3600000',
      LOG_LEVEL: 'warn',
      // The receiver listens on loopback, which the default outbound policy refuses.
      FLEETKEEP_OUTBOUND_ALLOW: 'external,loopback',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start banner:\n${output.join('')}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output.push(String(chunk));
      if (output.join('').includes('Fleetkeep is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (c: Buffer) => output.push(String(c)));
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output.join('')}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, exited };
}

async function signIn(url: string, name: string): Promise<Client> {
  const anon = new Client(url);
  const login = await anon.post('/api/login', { username: name, password: DEMO_PASSWORD });
  const auth = await anon.get(`/api/auth?access_token=${login.body.access_token}`);
  return new Client(url, auth.body.session);
}

interface Receipt {
  delivery: string;
  sid: number;
  name: string;
}

describe(`kill -9 between send and record (${TEST_DB})`, () => {
  let dataDir: string;
  let dbUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  const instances: Instance[] = [];
  const receipts: Receipt[] = [];
  /** Called with each request before it is answered; may hold the answer (resolve later). */
  let onRequest: (r: Receipt) => Promise<void> = async () => undefined;
  let receiver: http.Server;
  let hookUrl: string;

  beforeAll(async () => {
    if (!fs.existsSync(BUILT_MAIN)) throw new Error(`${BUILT_MAIN} is missing: run "npm run build:ts" first`);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-crash-'));
    if (TEST_DB === 'postgres') {
      const db = await createPgDatabase();
      dbUrl = db.url;
      dropDb = db.drop;
    }
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const r = {
          delivery: String(req.headers['x-fleetkeep-delivery']),
          sid: JSON.parse(body).service.id as number,
          name: JSON.parse(body).service.name as string,
        };
        receipts.push(r);
        void onRequest(r).then(() => {
          if (!res.destroyed) res.end('{"ok":true}');
        });
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    for (const i of instances)
      if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill('SIGKILL');
    await new Promise<void>((r) => receiver?.close(() => r()));
    await dropDb?.();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs SQL on the server's database while no process holds it mid-write. */
  async function exec(sqlText: string): Promise<void> {
    if (dbUrl) {
      const c = new pg.Client({ connectionString: dbUrl });
      await c.connect();
      try {
        await c.query(sqlText);
      } finally {
        await c.end();
      }
    } else {
      const db = new SQLite(path.join(dataDir, 'fleetkeep.sqlite'));
      try {
        db.exec(sqlText);
      } finally {
        db.close();
      }
    }
  }

  it('neither loses nor doubles the delivery', async () => {
    const env: Record<string, string> = { DATA_DIR: dataDir, ...(dbUrl ? { DATABASE_URL: dbUrl } : {}) };
    const first = await startInstance(env);
    instances.push(first);
    const manager = await signIn(first.url, 'manager');
    const fid = (await manager.get('/api/fleets')).body.fleets[0].id as number;
    const api = `/api/fleets/${fid}`;
    const units = (await manager.get(`${api}/units`)).body.units as { id: number }[];
    const made = await manager.post(`${api}/webhooks`, { n: 'Crash', k: 1, url: hookUrl });
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    // The first send: the receiver has it, and the process dies before it hears the answer. Only this
    // test's services count: the demo's own start-up events may still be on their way to the new set-up.
    onRequest = async (r) => {
      if (r.name !== 'Crash test') return;
      first.child.kill('SIGKILL');
      await first.exited;
    };
    const mine = (id: number) => receipts.filter((r) => r.sid === id);
    const created = await manager.post(`${api}/services`, {
      n: 'Crash test',
      t: 'u',
      uid: units[0]!.id,
      f: 1,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sid = created.body.id as number;
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(mine(sid)).toHaveLength(1);
    onRequest = async () => undefined;

    // The claim's lease (15 min) runs out: moved back by hand, as the time passing.
    await exec("update notification_deliveries set next_at = 0 where status = 'pending'");

    const second = await startInstance(env);
    instances.push(second);
    const again = await signIn(second.url, 'manager');
    const log = async () =>
      ((await again.get(`${api}/deliveries`)).body.deliveries as DeliveryWire[]).filter((d) => d.sid === sid);
    await expect.poll(async () => (await log())[0]?.status, { timeout: 20_000 }).toBe('sent');
    const rows = await log();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sid, status: 'sent', attempts: 2, error: null });
    // Sent again, under the same delivery id: one delivery for a receiver keyed on it.
    expect(mine(sid)).toHaveLength(2);
    expect(new Set(mine(sid).map((r) => r.delivery))).toEqual(new Set([String(rows[0]!.id)]));

    // The new process goes on: a next event is delivered once.
    const next = await again.post(`${api}/services`, {
      n: 'After the crash',
      t: 'u',
      uid: units[0]!.id,
      f: 1,
    });
    expect(next.status).toBe(200);
    await expect
      .poll(() => receipts.filter((r) => r.sid === next.body.id).length, { timeout: 20_000 })
      .toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(mine(next.body.id)).toHaveLength(1);
    expect(mine(sid)).toHaveLength(2);
    const exited = second.exited;
    second.child.kill('SIGTERM');
    await exited;
  }, 180_000);
});
