import type { Expression, Kysely, RawBuilder } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Advisory-lock names and their keys (PostgreSQL's two-int form `(key, sub)`; `sub` is 0 unless a lock
 * names one item, e.g. a fleet). One table, so that no two parts of the server pick the same number.
 * SQLite takes no advisory locks: one process writes, one transaction at a time.
 */
export const LOCKS = {
  /** Status engine: one writer per fleet at a time (engine/apply.ts), `sub` = fleet id. 'FKE1'. */
  engineFleet: 0x464b4531,
  /** Status engine: the one instance running the minute sweep (engine/timer.ts). 'FKE2'. */
  engineSweep: 0x464b4532,
  /** Demo seed: the instance that finds the database empty seeds it (demo/seed.ts). 'FKD1'. */
  demoSeed: 0x464b4431,
  /** Domain-event outbox: one publisher numbers committed events at a time (events/outbox.ts). 'FKO1'. */
  outboxPublish: 0x464b4f31,
  /** Account activation: one change of the account tree at a time (domain events of suspensions). 'FKA1'. */
  accountState: 0x464b4131,
  /** First run: one set-up (or create-superuser) checks for users and creates the first ones (modules/setup). 'FKS1'. */
  setup: 0x464b5331,
  /** Login throttle: one try counts the tries in flight at a time (auth/rate-limit.ts). 'FKL1'. */
  loginThrottle: 0x464b4c31,
} as const;

export type LockName = keyof typeof LOCKS;

/** The select builders' locking clauses, as Kysely's SelectQueryBuilder has them. */
export interface Lockable<Q> {
  forUpdate(): Q;
  forShare(): Q;
  skipLocked(): Q;
}

/**
 * Everything that differs between SQLite and PostgreSQL outside the migrations (DESIGN §2: one code
 * base, two dialects; STYLE.md: the dialect-specific pieces in one file per dialect).
 */
export interface DialectOps {
  readonly name: 'sqlite' | 'postgres';
  /** For people: "SQLite" or "PostgreSQL". */
  readonly title: string;
  /**
   * Row locks. PostgreSQL locks the selected rows until the transaction ends; SQLite returns the query
   * as it is, because its write lock already serialises writing transactions (and Kysely runs one
   * transaction at a time on its one connection).
   */
  forUpdate<Q extends Lockable<Q>>(query: Q): Q;
  forShare<Q extends Lockable<Q>>(query: Q): Q;
  /** The row lock of `forUpdate` as raw SQL text to end a select with: ` for update`, or nothing. */
  readonly forUpdateText: string;
  /** `FOR UPDATE SKIP LOCKED`: rows another transaction holds are left out instead of waited for. */
  forUpdateSkipLocked<Q extends Lockable<Q>>(query: Q): Q;
  /** Transaction-scoped advisory lock, released at commit or rollback. */
  lockInTransaction(trx: Kysely<Database>, name: LockName, sub?: number): Promise<void>;
  /**
   * Session-scoped advisory lock: runs `fn` on one pooled connection while holding the lock and
   * releases it on the same connection; when another session holds it, returns `{ ran: false }` at once.
   */
  withSessionLock<T>(
    db: Kysely<Database>,
    name: LockName,
    sub: number,
    fn: () => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }>;
  /** The `k`-th (1-based) bound parameter of a raw statement: `?` or `$k`. */
  placeholder(k: number): string;
  /**
   * Writing transactions run one at a time (SQLite), so rows become visible in the order of their ids.
   * PostgreSQL commits concurrent writers in any order: a later id may become visible first.
   */
  readonly serialWriters: boolean;
  /** LATERAL joins exist (PostgreSQL); SQLite has none. */
  readonly lateralJoins: boolean;
  /** `insert`/`update` inside a `with` clause (PostgreSQL): several writes in one statement. SQLite has none. */
  readonly writingCtes: boolean;
  /** A unique constraint refused the write (the driver's error code). */
  isUniqueViolation(err: unknown): boolean;
  /**
   * The statement failed because the database connection was lost (PostgreSQL: terminated backend,
   * server shut down, network gone); SQLite is a file and has no connection to lose.
   */
  isConnectionLost(err: unknown): boolean;
  /**
   * One JSON array text of a row's values (`json_array` / `json_build_array(...)::text`): a single
   * column the driver hands over as it is, cheaper than a row object of many properties.
   * Both write every number exactly.
   */
  jsonArray(values: readonly Expression<unknown>[]): RawBuilder<string>;
}
