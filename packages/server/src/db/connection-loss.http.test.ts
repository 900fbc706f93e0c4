import { ErrorCode, UNAVAILABLE_RETRY_SECONDS } from '@fleetkeep/core';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createPgDatabase,
  type Reply,
  startTestServer,
  type TestServer,
} from '../test/harness.js';
import { isConnectionLost } from './dialect/index.js';

/**
 * A lost database connection (an administrator's `pg_terminate_backend`, a failover) is a 503
 * `{error: 12}` with `Retry-After`, never a 500: the pool destroys the broken client, a read outside a
 * transaction runs again once on a live connection, and a write whose outcome is unknown answers 503
 * (db/pg-pool.ts, http/errors.ts). SQLite has no connection to lose, so this file always runs on a
 * PostgreSQL database of its own, whichever TEST_DB the suite runs on.
 */
describe('PostgreSQL only: lost database connections', () => {
  let t: TestServer;
  let own: Awaited<ReturnType<typeof createPgDatabase>>;
  let admin: Client;
  let cutter: pg.Client;
  let base: string;

  beforeAll(async () => {
    own = await createPgDatabase();
    t = await startTestServer({
      config: { databaseUrl: own.url },
      beforeListen(app) {
        // A write whose connection is cut between its statements: its outcome is unknown to the server.
        app.post('/api/test/cut-write', { config: { public: true } }, async () => {
          await t.server.ctx.db.kysely.transaction().execute(async (trx) => {
            await trx.insertInto('client_faults').values(fault('cut-write')).execute();
            await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx);
          });
          return {};
        });
      },
    });
    admin = await t.login('admin');
    base = `/api/fleets/${t.demo.fleetId}`;
    cutter = new pg.Client({ connectionString: own.url });
    await cutter.connect();
  });
  afterAll(async () => {
    await cutter?.end();
    await t?.close();
    await own?.drop();
  });

  const db = () => t.server.ctx.db.kysely;
  const fault = (message: string) => ({
    kind: 'test',
    release: 'test',
    message,
    stack: null,
    url: null,
    user_agent: 'test',
    user_name: null,
    tm: 0,
  });
  const stored = (message: string) =>
    db().selectFrom('client_faults').select('id').where('message', '=', message).execute();
  const backendPid = async (conn = db()) =>
    Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn)).rows[0]!.pid);

  /** Ends every other connection to the server's database; how many it ended. */
  const cutAll = async () => {
    const res = await cutter.query(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return res.rows.filter((r) => r.ended === true).length;
  };

  const expectUnavailable = (res: Reply) => {
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body).toEqual({ error: ErrorCode.unavailable, reason: expect.any(String) });
    expect(Number(res.headers.get('retry-after'))).toBe(UNAVAILABLE_RETRY_SECONDS);
  };

  it('runs a read again once on a live connection when its own was cut', async () => {
    await db()
      .connection()
      .execute(async (conn) => {
        const before = await backendPid(conn);
        await cutter.query('select pg_terminate_backend($1)', [before]);
        const after = await backendPid(conn);
        expect(after).not.toBe(before);
      });
    // The cut client was destroyed, not handed out again.
    expect(await backendPid()).toBeGreaterThan(0);
  });

  it('fails a transaction cut in the middle with the lost connection, and rolls nothing half written', async () => {
    let lost: unknown;
    try {
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('client_faults').values(fault('half-written')).execute();
          await cutter.query('select pg_terminate_backend($1)', [await backendPid(trx)]);
          await trx.selectFrom('client_faults').select('id').execute();
        });
    } catch (err) {
      lost = err;
    }
    // The statement's own error, not that of the ROLLBACK sent on the dead connection.
    expect(isConnectionLost(lost)).toBe(true);
    expect((lost as Error).message).not.toMatch(/not queryable/);
    expect(await stored('half-written')).toEqual([]);
  });

  it('answers 503 {error: 12} with Retry-After to a write whose connection was lost, and stores none of it', async () => {
    expectUnavailable(await t.anon.post('/api/test/cut-write', {}));
    expect(await stored('cut-write')).toEqual([]);
    expect((await admin.get(`${base}/units`)).status).toBe(200);
  });

  it('answers no 500 while every connection is cut again and again under reads and writes; acknowledged writes are kept', async () => {
    const answers: { what: string; res: Reply }[] = [];
    const written: number[] = [];
    let running = true;
    let seq = 0;

    const worker = async (n: number) => {
      while (running) {
        const i = ++seq;
        if ((i + n) % 3 === 0) {
          const res = await admin.post(`${base}/drivers`, { n: `Cut driver ${i}` });
          answers.push({ what: 'POST drivers', res });
          if (res.status === 200) written.push(res.body.id);
        } else {
          const path = i % 2 ? `${base}/units` : `${base}/drivers`;
          answers.push({ what: `GET ${path}`, res: await admin.get(path) });
        }
      }
    };
    const workers = Array.from({ length: 6 }, (_, n) => worker(n));

    let ended = 0;
    for (let k = 0; k < 8; k++) {
      await new Promise((r) => setTimeout(r, 250));
      ended += await cutAll();
    }
    running = false;
    await Promise.all(workers);

    // The cuts reached the server's connections (its pool, its LISTEN connection).
    expect(ended).toBeGreaterThan(8);
    const faults = answers.filter((a) => a.res.status !== 200 && a.res.status !== 503);
    expect(faults.map((a) => `${a.what}: ${a.res.status} ${JSON.stringify(a.res.body)}`)).toEqual([]);
    for (const a of answers.filter((x) => x.res.status === 503)) expectUnavailable(a.res);
    expect(answers.filter((a) => a.res.status === 200).length).toBeGreaterThan(20);

    // The server serves again, and every write it acknowledged is there.
    const drivers = (await admin.get(`${base}/drivers`)).body.drivers as { id: number }[];
    const ids = new Set(drivers.map((d) => d.id));
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((id) => !ids.has(id))).toEqual([]);
  });
});
