import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_MAIN, freePort } from '../test/built-server.js';
import { EventsClient } from '../test/events-client.js';
import { Client, createPgDatabase, DEMO_PASSWORD, TEST_DB } from '../test/harness.js';

interface Instance {
  child: ChildProcess;
  url: string;
  output: string[];
}

/** Starts the built server (`node dist/main.js`, what `npm start` runs) and waits for its banner. */
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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start banner:\n${output.join('')}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output.push(String(chunk));
      if (output.join('').includes('Fleetkeep is running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => output.push(String(c)));
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output.join('')}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, output };
}

async function signIn(url: string, name: string): Promise<Client> {
  const anon = new Client(url);
  const login = await anon.post('/api/login', { username: name, password: DEMO_PASSWORD });
  const auth = await anon.get(`/api/auth?access_token=${login.body.access_token}`);
  return new Client(url, auth.body.session);
}

/**
 * The server as `npm start` runs it. On PostgreSQL two instances share one database and deliver each
 * other's events through LISTEN/NOTIFY; on SQLite (one instance by design) the single process does.
 */
describe(`server processes on ${TEST_DB}`, () => {
  const instances: Instance[] = [];
  let dataDir: string;
  let dropDb: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (!fs.existsSync(BUILT_MAIN)) throw new Error(`${BUILT_MAIN} is missing: run "npm run build:ts" first`);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-proc-'));
    const env: Record<string, string> = { DATA_DIR: dataDir };
    if (TEST_DB === 'postgres') {
      const db = await createPgDatabase();
      env.DATABASE_URL = db.url;
      dropDb = db.drop;
      // Both start at once: migrations and the demo seed must cope with a concurrent start.
      instances.push(...(await Promise.all([startInstance(env), startInstance(env)])));
    } else {
      instances.push(await startInstance(env));
    }
  });

  afterAll(async () => {
    for (const i of instances) if (i.child.exitCode === null) i.child.kill('SIGKILL');
    await dropDb?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers an event made through one instance to a websocket of the other', async () => {
    const first = instances[0]!;
    const last = instances[instances.length - 1]!;
    const manager = await signIn(last.url, 'manager');
    const events = await EventsClient.connect(last.url, manager.ssid);
    const admin = await signIn(first.url, 'admin');
    const fleets = await admin.get('/api/fleets');
    const fleetId = fleets.body.fleets[0].id;
    expect((await admin.put(`/api/fleets/${fleetId}`, { cur: 'CHF' })).status).toBe(200);
    const event = await events.next((e) => e.s === 'fleet' && e.t === 'u');
    expect(event).toMatchObject({ fid: fleetId, d: { cur: 'CHF' } });
    events.close();
  });

  it('a suspension made through one instance ends the sessions on the other at once', async () => {
    const first = instances[0]!;
    const last = instances[instances.length - 1]!;
    const outsider = await signIn(last.url, 'outsider');
    const fleetId = (await outsider.get('/api/fleets')).body.fleets[0].id;
    // The other instance has read (and keeps) the account tree for this check.
    expect((await outsider.get(`/api/fleets/${fleetId}/units`)).status).toBe(200);
    const events = await EventsClient.connect(last.url, outsider.ssid);
    const root = await signIn(first.url, 'root');
    const accounts = (await root.get('/api/admin/accounts')).body.accounts as { id: number; n: string }[];
    const northwind = accounts.find((a) => a.n === 'Northwind Haulage')!.id;
    const login = () =>
      new Client(last.url).post('/api/login', { username: 'outsider', password: DEMO_PASSWORD });
    try {
      expect((await root.put(`/api/admin/accounts/${northwind}`, { s: 0 })).status).toBe(200);
      // The next call on the other instance: no session any more, no waiting for the bus.
      const denied = await outsider.get(`/api/fleets/${fleetId}/units`);
      expect(denied.status).toBe(401);
      expect(denied.body.error).toBe(1);
      const refused = await login();
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: 7, reason: 'Account is suspended' });
      // Its socket on the other instance is logged out (user event 32) and closed.
      await events.next((e) => e.s === 'user' && (e.d as { type?: number }).type === 32);
      expect(await events.closed()).toBe(4001);
    } finally {
      expect((await root.put(`/api/admin/accounts/${northwind}`, { s: 1 })).status).toBe(200);
      events.close();
    }
    expect((await login()).status).toBe(200);
    const back = await signIn(last.url, 'outsider');
    expect((await back.get(`/api/fleets/${fleetId}/units`)).status).toBe(200);
  });

  it('a password change through one instance ends the user’s other sessions on the other', async () => {
    const first = instances[0]!;
    const last = instances[instances.length - 1]!;
    const here = await signIn(first.url, 'viewer');
    const there = await signIn(last.url, 'viewer');
    const events = await EventsClient.connect(last.url, there.ssid);
    const changed = await here.put('/api/user/password', { old: DEMO_PASSWORD, new: 'multi-instance-1' });
    expect(changed.status).toBe(200);
    try {
      expect((await there.get('/api/fleets')).status).toBe(401);
      await events.next((e) => e.s === 'user' && (e.d as { type?: number }).type === 32);
      expect(await events.closed()).toBe(4001);
      expect((await here.get('/api/fleets')).status).toBe(200);
    } finally {
      // The demo password back for the other cases.
      const back = await here.put('/api/user/password', { old: 'multi-instance-1', new: DEMO_PASSWORD });
      expect(back.status).toBe(200);
      events.close();
    }
  });

  it('seeded the demo exactly once', async () => {
    const root = await signIn(instances[0]!.url, 'root');
    const accounts = await root.get('/api/admin/accounts');
    expect(accounts.body.accounts.map((a: { n: string }) => a.n).sort()).toEqual([
      'Demo Logistics',
      'Northwind Haulage',
    ]);
  });

  it('shuts down gracefully on SIGTERM', async () => {
    for (const instance of instances) {
      const exited = new Promise<number | null>((resolve) =>
        instance.child.once('exit', (code) => resolve(code)),
      );
      instance.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
