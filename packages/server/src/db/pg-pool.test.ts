import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isConnectionLost } from './dialect/index.js';
import { DatabaseUnreachable, isRepeatable, keptPool, queryKept } from './pg-pool.js';

/** Which statements may run again on a fresh connection after their own was lost (db/pg-pool.ts). */
describe('isRepeatable', () => {
  it('reads and the start of a transaction run again', () => {
    expect(isRepeatable('select rev from auth_revision where id = 1')).toBe(true);
    expect(isRepeatable('  SELECT "id" from "units" where "fid" = $1')).toBe(true);
    expect(isRepeatable('begin')).toBe(true);
    expect(isRepeatable('start transaction isolation level serializable')).toBe(true);
  });

  it('writes, transaction ends and reads that act do not', () => {
    for (const text of [
      'insert into "drivers" ("n") values ($1) returning "id"',
      'update "units" set "nm" = $1',
      'delete from login_failures where at_ms < $1',
      'with x as (insert into t values (1) returning id) select * from x',
      'commit',
      'rollback',
      'select pg_notify($1, $2)',
      'select pg_advisory_xact_lock($1::int, $2::int)',
      'select pg_try_advisory_lock($1::int, $2::int) as ok',
      "select nextval('units_id_seq')",
      "select set_config('x', '1', true)",
    ])
      expect(isRepeatable(text), text).toBe(false);
  });
});

/** A database that cannot be reached at all is a lost connection too (503 `{error: 12}`, never a 500). */
describe('a database that cannot be reached', () => {
  // Port 1 on loopback: nothing listens there, the connection is refused at once.
  const closed = () =>
    new pg.Pool({ host: '127.0.0.1', port: 1, user: 'postgres', connectionTimeoutMillis: 2000 });

  it('fails a Kysely statement with DatabaseUnreachable, read as a lost connection', async () => {
    const pool = closed();
    const db = new Kysely<Record<string, never>>({ dialect: new PostgresDialect({ pool: keptPool(pool) }) });
    const err = await sql`select 1`.execute(db).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DatabaseUnreachable);
    expect(isConnectionLost(err)).toBe(true);
    await db.destroy();
  });

  it('fails a fixed statement the same way', async () => {
    const pool = closed();
    const err = await queryKept(pool, { text: 'select 1' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DatabaseUnreachable);
    expect(isConnectionLost(err)).toBe(true);
    await pool.end();
  });
});
