import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { BUILT_MAIN, freePort } from '../built-server.js';
import { Client, DEMO_PASSWORD } from '../harness.js';

/**
 * The built server (`npm run build:ts`) as a process of its own, for the fault and load suite (docs/development.md):
 * started on a DATA_DIR and optionally a DATABASE_URL, with the demo seeded on an empty database
 * and the simulator held off (an hour between ticks), so that only the suite writes.
 */

/** How long a start may take on the loaded test machine. */
const START_TIMEOUT_MS = 60_000;
/** The simulator's tick, far beyond any run: the suite's readings are the only ones. */
const SIMULATOR_OFF_MS = 3_600_000;

export interface Instance {
  child: ChildProcess;
  url: string;
  osmandUrl: string;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** Everything it printed (stdout and stderr), for failure messages. */
  output: string[];
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (graceful stop), then waits for the exit. */
  stop(): Promise<void>;
}

export interface Where {
  dataDir: string;
  databaseUrl?: string;
}

/**
 * The entry the suite starts: the built server, or FLEETKEEP_SOAK_MAIN (a private build of the same tree,
 * so that a long run does not hold the shared dist/ lock for its whole length).
 */
const MAIN = process.env.FLEETKEEP_SOAK_MAIN || BUILT_MAIN;

/** A command-line tool of the same build (`backup`, `restore`…). */
export const builtCli = (name: string) => path.join(path.dirname(MAIN), 'cli', `${name}.js`);

/** The test-only event-loop probe, preloaded when `extra` names FLEETKEEP_LOOP_PROBE_FILE. */
const LOOP_PROBE = path.join(import.meta.dirname, 'loop-probe.mjs');

export function assertBuilt(): void {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build:ts" first`);
}

export async function startInstance(where: Where, extra: Record<string, string> = {}): Promise<Instance> {
  const port = await freePort();
  const osmandPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: where.dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    OSMAND_PORT: String(osmandPort),
    TELTONIKA_PORT: '0',
    FLEETKEEP_DEMO: '1',
    FLEETKEEP_DEMO_PASSWORD: DEMO_PASSWORD,
    FLEETKEEP_SIMULATOR_MS: String(SIMULATOR_OFF_MS),
    LOG_LEVEL: 'warn',
    ...extra,
  };
  if (where.databaseUrl) env.DATABASE_URL = where.databaseUrl;
  else delete env.DATABASE_URL;
  // FLEETKEEP_SOAK_NODE_ARGS: Node options for the server processes only (e.g. `--cpu-prof`, which
  // NODE_OPTIONS refuses), for a look inside a run.
  const nodeArgs = (process.env.FLEETKEEP_SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const probe = env.FLEETKEEP_LOOP_PROBE_FILE ? ['--import', LOOP_PROBE] : [];
  const args = [...nodeArgs, ...probe, MAIN];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output: string[] = [];
  child.stderr?.on('data', (c: Buffer) => output.push(String(c)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start banner:\n${output.join('')}`)),
      START_TIMEOUT_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output.push(String(chunk));
      if (output.join('').includes('Fleetkeep is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output.join('')}`));
    });
  });
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    osmandUrl: `http://127.0.0.1:${osmandPort}`,
    exited,
    output,
    kill: () => stopWith('SIGKILL'),
    stop: () => stopWith('SIGTERM'),
  };
}

/** Signs a demo user in on `url` (login, then auth). */
export async function signIn(
  url: string,
  name: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const anon = new Client(url);
  const login = await anon.request(
    'POST',
    '/api/login',
    { username: name, password: DEMO_PASSWORD },
    headers,
  );
  if (login.status !== 200)
    throw new Error(`login of ${name}: ${login.status} ${JSON.stringify(login.body)}`);
  const auth = await anon.request(
    'GET',
    `/api/auth?access_token=${login.body.access_token}`,
    undefined,
    headers,
  );
  if (auth.status !== 200) throw new Error(`auth of ${name}: ${auth.status} ${JSON.stringify(auth.body)}`);
  return new Client(url, auth.body.session);
}

/** SQL on the instance's database from the test process (both dialects, plain SQL, `?` placeholders). */
export interface Inspector {
  all<T>(sqlText: string, params?: unknown[]): Promise<T[]>;
  /** A statement without rows (setting a run up: units, users). */
  exec(sqlText: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

/** `?` placeholders become `$1…` for PostgreSQL. */
function numbered(sqlText: string): string {
  let n = 0;
  return sqlText.replace(/\?/g, () => `$${++n}`);
}

export async function inspect(where: Where): Promise<Inspector> {
  if (where.databaseUrl) {
    const client = new pg.Client({ connectionString: where.databaseUrl });
    await client.connect();
    return {
      all: async <T>(sqlText: string, params: unknown[] = []) =>
        (await client.query(numbered(sqlText), params)).rows as T[],
      exec: async (sqlText: string, params: unknown[] = []) => {
        await client.query(numbered(sqlText), params);
      },
      close: () => client.end(),
    };
  }
  const db = new SQLite(`${where.dataDir}/fleetkeep.sqlite`, { fileMustExist: true, timeout: 10_000 });
  return {
    all: async <T>(sqlText: string, params: unknown[] = []) => db.prepare(sqlText).all(...params) as T[],
    exec: async (sqlText: string, params: unknown[] = []) => {
      db.prepare(sqlText).run(...params);
    },
    close: async () => {
      db.close();
    },
  };
}

/** Milliseconds to wait. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One request's outcome: status 0 when the connection broke, -1 when it ran past its timeout. */
export interface Outcome {
  status: number;
  ms: number;
  body: unknown;
  error?: string;
}

export const BROKEN = 0;
export const TIMED_OUT = -1;

/** A request with a timeout that never throws: every outcome is counted by the caller. */
export async function timed(
  method: string,
  url: string,
  options: { ssid?: string; body?: unknown; timeoutMs: number; headers?: Record<string, string> },
): Promise<Outcome> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.ssid) headers.authorization = `SSID ${options.ssid}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const started = performance.now();
  const controller = new AbortController();
  const attempt = async (): Promise<Outcome> => {
    try {
      const res = await fetch(url, { method, headers, body: payload, signal: controller.signal });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      return { status: res.status, ms: performance.now() - started, body };
    } catch (err) {
      // fetch's own connect deadline (10 s) counts as a time-out: the server did not accept in time.
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const timedOut = controller.signal.aborted || cause?.code === 'UND_ERR_CONNECT_TIMEOUT';
      return {
        status: timedOut ? TIMED_OUT : BROKEN,
        ms: performance.now() - started,
        body: undefined,
        error: `${(err as Error).message} (${cause?.code ?? cause?.message ?? 'no cause'})`,
      };
    }
  };
  // Our own deadline as well as the abort: a fetch aborted while its body was read did not always settle,
  // and a load run then waited forever instead of counting a time-out.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ status: TIMED_OUT, ms: performance.now() - started, body: undefined, error: 'timed out' });
    }, options.timeoutMs);
  });
  try {
    return await Promise.race([attempt(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The API error shape of DESIGN §5 / spec §8: `{error, reason}` (with `details` or not). */
export function isErrorShape(body: unknown): boolean {
  const b = body as { error?: unknown; reason?: unknown } | undefined;
  return typeof b === 'object' && b !== null && typeof b.error === 'number' && typeof b.reason === 'string';
}
