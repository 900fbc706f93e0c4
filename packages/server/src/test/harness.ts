import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Config, loadConfig } from '../config.js';
import { type DemoIds, seedDemo } from '../demo/seed.js';
import { createServer, type Server } from '../server.js';

/** Which database the HTTP suite runs on: TEST_DB=sqlite (default) or TEST_DB=postgres. */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const DEMO_PASSWORD = 'demo-password-1';

/** A fresh, empty PostgreSQL database for one test server; dropped by the returned function. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
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
  anon: Client;
  close(): Promise<void>;
}

export interface TestServerOptions {
  config?: Partial<Config>;
  /** Seed the demo account tree (default true). */
  demo?: boolean;
}

/** Starts the real server on a fresh database of TEST_DB, listening on a free port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-test-'));
  const pgDb = TEST_DB === 'postgres' ? await createPgDatabase() : undefined;
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: pgDb?.url,
    osmandPort: 0,
    logLevel: 'silent',
    ...options.config,
  };
  const server = await createServer(config, { logger: process.env.TEST_LOG ? { level: 'debug' } : false });
  const demo =
    options.demo === false
      ? { fleetId: 0, otherFleetId: 0, users: {} }
      : await seedDemo(server.ctx, DEMO_PASSWORD);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    server,
    demo,
    config,
    anon: new Client(url),
    async login(name: string) {
      const anon = new Client(url);
      const login = await anon.post('/api/login', { username: name, password: DEMO_PASSWORD });
      if (login.status !== 200)
        throw new Error(`login ${name}: ${login.status} ${JSON.stringify(login.body)}`);
      const auth = await anon.get(`/api/auth?access_token=${encodeURIComponent(login.body.access_token)}`);
      if (auth.status !== 200) throw new Error(`auth ${name}: ${auth.status}`);
      return new Client(url, auth.body.session);
    },
    async close() {
      await server.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
