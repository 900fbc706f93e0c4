import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detailsOfCode, errorBody } from '@fleetkeep/core';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { forgetAccountTree } from '../auth/access.js';
import { hashPassword } from '../auth/secrets.js';
import { type Config, loadConfig } from '../config.js';
import { now } from '../context.js';
import { type DemoIds, seedDemo } from '../demo/seed.js';
import { createServer, type Server } from '../server.js';
import { migratedPgTemplate, migratedSqliteTemplate } from './templates.js';

/** Which database the HTTP suite runs on: TEST_DB=sqlite (default) or TEST_DB=postgres. */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const DEMO_PASSWORD = 'demo-password-1';

/**
 * A fresh PostgreSQL database for one test server, dropped by the returned function: empty, or with
 * `migrated` a copy of the migrated template (test/templates.ts).
 */
export async function createPgDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fk_test_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? await migratedPgTemplate(TEST_DATABASE_URL) : undefined;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Every error reply a suite receives keeps the core error contract (DESIGN §5 `{error, reason,
 * details?}`, details of `RefusalDetails` as its code has them): a reply that does not fails the test
 * that got it.
 */
export function checkErrorReply(route: string, status: number, body: unknown): void {
  if (status < 400 || typeof body !== 'object' || body === null || !('error' in body)) return;
  const result = errorBody.safeParse(body);
  const ofCode = result.success ? detailsOfCode(result.data.error).safeParse(result.data.details) : result;
  if (!ofCode.success)
    throw new Error(
      `Error reply of ${route} breaks the core contract: ${ofCode.error.issues
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')} in ${JSON.stringify(body).slice(0, 300)}`,
    );
}

/** A signed-in (or anonymous) HTTP client of the test server. */
export class Client {
  constructor(
    readonly baseUrl: string,
    readonly ssid?: string,
  ) {}

  async request<T = any>(
    method: string,
    urlPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.ssid && !h.authorization) h.authorization = `SSID ${this.ssid}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + urlPath, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    checkErrorReply(`${method} ${urlPath}`, res.status, parsed);
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  get<T = any>(p: string) {
    return this.request<T>('GET', p);
  }
  post<T = any>(p: string, body?: unknown) {
    return this.request<T>('POST', p, body ?? {});
  }
  put<T = any>(p: string, body?: unknown) {
    return this.request<T>('PUT', p, body ?? {});
  }
  patch<T = any>(p: string, body?: unknown) {
    return this.request<T>('PATCH', p, body ?? {});
  }
  delete<T = any>(p: string, body?: unknown) {
    return this.request<T>('DELETE', p, body);
  }
}

export interface TestServer {
  url: string;
  server: Server;
  demo: DemoIds;
  config: Config;
  /** Signs a demo user in (login, then auth) and returns a client carrying the session. */
  login(name: string): Promise<Client>;
  /** Like `login`, but also returns the login token and the authentication reply. */
  signIn(name: string, password?: string): Promise<SignedIn>;
  anon: Client;
  close(): Promise<void>;
}

export interface TestServerOptions {
  config?: Partial<Config>;
  /** Seed the demo account tree (default true). */
  demo?: boolean;
  /** Runs after the app is built and the demo seeded, before it listens (e.g. to add a test route). */
  beforeListen?(app: FastifyInstance): void | Promise<void>;
}

export interface SignedIn {
  client: Client;
  accessToken: string;
  /** The authentication reply of spec §3. */
  auth: any;
}

/** One OsmAnd reading of a device over HTTP (odometer in km, `ago` seconds before now), accepted. */
export async function sendOdometer(t: TestServer, deviceId: string, km: number, ago: number): Promise<void> {
  const q = new URLSearchParams({
    id: deviceId,
    lat: '53.9',
    lon: '27.5',
    timestamp: String(now() - ago),
    odometer: String(km * 1000),
  });
  const res = await t.anon.get(`/api/ingest/osmand?${q}`);
  if (res.status !== 200 || res.body?.ok !== true)
    throw new Error(`reading refused: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Another instance of the server on the same database (a config of a running test server), listening
 * on a free port: the multi-instance tests change data through one and read it through the other.
 */
export async function listenAnother(config: Config): Promise<{ server: Server; url: string }> {
  const server = await createServer(config, { logger: false });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** Starts the real server on a fresh database of TEST_DB, listening on a free port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-test-'));
  const pgDb = TEST_DB === 'postgres' ? await createPgDatabase({ migrated: true }) : undefined;
  // The file name the server opens in its data directory (server.ts createServer).
  if (!pgDb) fs.copyFileSync(await migratedSqliteTemplate(), path.join(dataDir, 'fleetkeep.sqlite'));
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: pgDb?.url,
    osmandPort: 0,
    teltonikaPort: 0,
    logLevel: 'silent',
    checkReplies: true,
    ...options.config,
  };
  const server = await createServer(config, { logger: process.env.TEST_LOG ? { level: 'debug' } : false });
  const demo =
    options.demo === false
      ? { fleetId: 0, otherFleetId: 0, users: {} }
      : await seedDemo(server.ctx, DEMO_PASSWORD);
  await options.beforeListen?.(server.app);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const signIn = async (name: string, password = DEMO_PASSWORD): Promise<SignedIn> => {
    const anon = new Client(url);
    const login = await anon.post('/api/login', { username: name, password });
    if (login.status !== 200) throw new Error(`login ${name}: ${login.status} ${JSON.stringify(login.body)}`);
    const accessToken: string = login.body.access_token;
    const auth = await anon.get(`/api/auth?access_token=${encodeURIComponent(accessToken)}`);
    if (auth.status !== 200) throw new Error(`auth ${name}: ${auth.status}`);
    return { client: new Client(url, auth.body.session), accessToken, auth: auth.body };
  };
  return {
    url,
    server,
    demo,
    config,
    anon: new Client(url),
    login: async (name: string) => (await signIn(name)).client,
    signIn,
    async close() {
      await server.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/*
 * Factories for rows the demo does not have (a sub-account, a second fleet, a dedicated user). They
 * write through the database directly: the API has no calls to create accounts, fleets or users yet.
 */

/** Id of the account a demo user belongs to. */
export async function accountOf(t: TestServer, userName: string): Promise<number> {
  const row = await t.server.ctx.db.kysely
    .selectFrom('users')
    .select('account_id')
    .where('name', '=', userName)
    .executeTakeFirstOrThrow();
  return row.account_id;
}

export async function createAccount(t: TestServer, name: string, parentId: number): Promise<number> {
  const row = await t.server.ctx.db.kysely
    .insertInto('accounts')
    .values({ name, parent_id: parentId, active: 1, created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  forgetAccountTree(t.server.ctx);
  return row.id;
}

export async function createFleet(t: TestServer, accountId: number, name: string): Promise<number> {
  const row = await t.server.ctx.db.kysely
    .insertInto('fleets')
    .values({ account_id: accountId, name, tz: 0, cur: 'EUR', ms: 0, fm: 1, created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A user with the demo password, optionally a member of fleets. */
export async function createUser(
  t: TestServer,
  user: {
    name: string;
    accountId: number;
    admin?: boolean;
    memberships?: { fleetId: number; acl: number }[];
  },
): Promise<number> {
  const db = t.server.ctx.db.kysely;
  const first = user.memberships?.[0]?.fleetId ?? null;
  const row = await db
    .insertInto('users')
    .values({
      account_id: user.accountId,
      name: user.name,
      full_name: user.name,
      password_hash: await hashPassword(DEMO_PASSWORD),
      su: 0,
      admin: user.admin ? 1 : 0,
      settings: '{}',
      fid: first,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const m of user.memberships ?? []) {
    await db.insertInto('fleet_users').values({ fleet_id: m.fleetId, user_id: row.id, acl: m.acl }).execute();
  }
  return row.id;
}

/** A unit of an account, in a fleet or in none; its counters start as joined (actual = 0). */
export async function createUnit(
  t: TestServer,
  unit: { accountId: number; fleetId: number | null; name: string; mileage?: number; engineHours?: number },
): Promise<number> {
  const t0 = now();
  const mileage = unit.mileage ?? 1000;
  const engineHours = unit.engineHours ?? 100;
  const row = await t.server.ctx.db.kysely
    .insertInto('units')
    .values({
      account_id: unit.accountId,
      fleet_id: unit.fleetId,
      name: unit.name,
      device_id: `test-${unit.name.replace(/\W+/g, '-')}-${randomBytes(3).toString('hex')}`,
      unit_type_id: null,
      mileage,
      engine_hours: engineHours,
      base_mileage: mileage,
      base_engine_hours: engineHours,
      pulled_mileage: 0,
      pulled_engine_hours: 0,
      joined_at: unit.fleetId === null ? null : t0,
      last_time: null,
      lat: null,
      lon: null,
      speed: null,
      course: null,
      altitude: null,
      ignition: null,
      props: '{}',
      params: '{}',
      cf: '[]',
      ins: 0,
      created_at: t0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
