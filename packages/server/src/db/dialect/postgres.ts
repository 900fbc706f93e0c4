import { sql } from 'kysely';
import { type DialectOps, LOCKS } from './types.js';

/** PostgreSQL (pg): several instances on one database, coordinated by row and advisory locks. */
export const postgresOps: DialectOps = {
  name: 'postgres',
  title: 'PostgreSQL',
  forUpdate: (query) => query.forUpdate(),
  forShare: (query) => query.forShare(),
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
  jsonArray: (values) => sql<string>`json_build_array(${sql.join(values)})::text`,
};
