import { type Kysely, PostgresAdapter } from 'kysely';
import type { DialectName } from '../database.js';
import type { Database } from '../schema.js';
import { postgresOps } from './postgres.js';
import { sqliteOps } from './sqlite.js';
import type { DialectOps } from './types.js';

export { type DialectOps, LOCKS, type Lockable, type LockName } from './types.js';

/**
 * The one place that picks a dialect's SQL (DESIGN §2). Code outside `db/` asks `ctx.db.ops` (or
 * `dialectOps(name)` where only the name is at hand) instead of testing the dialect itself.
 */
export function dialectOps(name: DialectName): DialectOps {
  return name === 'postgres' ? postgresOps : sqliteOps;
}

/** The dialect of a Kysely instance or transaction, for code that is handed one without `ctx.db`. */
export function opsOf(db: Kysely<Database>): DialectOps {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgresOps : sqliteOps;
}

/** The database connection was lost (only PostgreSQL has one to lose); http/errors.ts answers 503. */
export function isConnectionLost(err: unknown): boolean {
  return postgresOps.isConnectionLost(err);
}

/** A unique constraint refused the write, on either dialect (callers need not know which one runs). */
export function isUniqueViolation(err: unknown): boolean {
  return postgresOps.isUniqueViolation(err) || sqliteOps.isUniqueViolation(err);
}
