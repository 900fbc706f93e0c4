import { sql } from 'kysely';
import type { DialectOps } from './types.js';

/** SQLite (better-sqlite3): one process, one writing transaction at a time. */
export const sqliteOps: DialectOps = {
  name: 'sqlite',
  title: 'SQLite',
  forUpdate: (query) => query,
  forShare: (query) => query,
  forUpdateText: '',
  forUpdateSkipLocked: (query) => query,
  async lockInTransaction() {},
  async withSessionLock(_db, _name, _sub, fn) {
    return { ran: true, value: await fn() };
  },
  placeholder: () => '?',
  serialWriters: true,
  lateralJoins: false,
  writingCtes: false,
  isUniqueViolation: (err) => (err as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE',
  isConnectionLost: () => false,
  jsonArray: (values) => sql<string>`json_array(${sql.join(values)})`,
};
