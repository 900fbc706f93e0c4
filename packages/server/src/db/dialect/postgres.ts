import { sql } from 'kysely';
import { type DialectOps, LOCKS } from './types.js';

/**
 * SQLSTATEs of a lost connection besides class 08 (connection exception): 57P01 admin_shutdown
 * (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now.
 */
const CONNECTION_LOST = new Set(['57P01', '57P02', '57P03']);
/** pg's own errors of a connection that ended or failed (they carry no SQLSTATE). */
const PG_CONNECTION_LOST = /^Connection terminated|is not queryable$/;

/** PostgreSQL (pg): several instances on one database, coordinated by row and advisory locks. */
export const postgresOps: DialectOps = {
  name: 'postgres',
  title: 'PostgreSQL',
  forUpdate: (query) => query.forUpdate(),
  forShare: (query) => query.forShare(),
  forUpdateText: ' for update',
  forUpdateSkipLocked: (query) => query.forUpdate().skipLocked(),
  async lockInTransaction(trx, name, sub = 0) {
    await sql`select pg_advisory_xact_lock(${LOCKS[name]}::int, ${sub}::int)`.execute(trx);
  },
  async withSessionLock(db, name, sub, fn) {
    return db.connection().execute(async (conn) => {
      const got = await sql<{
        ok: boolean;
      }>`select pg_try_advisory_lock(${LOCKS[name]}::int, ${sub}::int) as ok`.execute(conn);
      if (!got.rows[0]?.ok) return { ran: false } as const;
      try {
        return { ran: true, value: await fn() } as const;
      } finally {
        await sql`select pg_advisory_unlock(${LOCKS[name]}::int, ${sub}::int)`.execute(conn);
      }
    });
  },
  placeholder: (k) => `$${k}`,
  serialWriters: false,
  lateralJoins: true,
  writingCtes: true,
  // 23505 unique_violation.
  isUniqueViolation: (err) => (err as { code?: unknown } | null)?.code === '23505',
  isConnectionLost(err) {
    const e = err as { code?: unknown; message?: unknown } | null;
    if (typeof e?.code === 'string' && (CONNECTION_LOST.has(e.code) || e.code.startsWith('08'))) return true;
    return typeof e?.message === 'string' && PG_CONNECTION_LOST.test(e.message);
  },
  jsonArray: (values) => sql<string>`json_build_array(${sql.join(values)})::text`,
};
