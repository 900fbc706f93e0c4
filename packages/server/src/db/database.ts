import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
} from 'kysely';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { type DialectOps, dialectOps } from './dialect/index.js';
import { keptPool, queryKept } from './pg-pool.js';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** The dialect's SQL differences (row and advisory locks, placeholders...): db/dialect/. */
  ops: DialectOps;
  /** Where the data lives, for the start banner: "PostgreSQL" or the SQLite file. */
  label: string;
  /** PostgreSQL connection string, for components that need their own connection (LISTEN). */
  url: string | undefined;
  /**
   * Runs a hot query of fixed text, compiled once (`parameters` replace the compiled ones): the access
   * and list revisions read on every request. On PostgreSQL it goes straight to the pool as a named
   * prepared statement: no Kysely layers on our side, no parse and plan on the server's (the
   * fixed cost of a query dominates a small read). On SQLite through Kysely, whose statements are cached.
   */
  fixed<R>(query: CompiledQuery<R>, parameters?: readonly unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/**
 * Named statements of `fixed` by query text. Only texts compiled once at start of use come here, so the
 * map stays as small as the set of such queries; a name is never reused for another text.
 */
function namedStatements(pool: pg.Pool): Db['fixed'] {
  const names = new Map<string, string>();
  return async <R>(query: CompiledQuery<R>, parameters = query.parameters) => {
    let name = names.get(query.sql);
    if (!name) {
      name = `fixed_${names.size + 1}`;
      names.set(query.sql, name);
    }
    // These are reads: one lost connection costs a second try, not an error (db/pg-pool.ts).
    const result = await queryKept(pool, { name, text: query.sql, values: parameters as unknown[] });
    return result.rows as R[];
  };
}

// int8 (counts, Unix seconds) fits a JS number for every value this product stores.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
// float8 already parses to number; numeric stays text unless a module asks for it.

/** 57P01: the backend was terminated (shutdown, dropped database); expected while stopping. */
export function reportIdleError(err: Error & { code?: string }): void {
  if (err.code !== '57P01') console.warn('PostgreSQL idle client error:', err.message);
}

/** Statements kept prepared per SQLite connection; the hot paths use a few dozen distinct texts. */
const STATEMENT_CACHE = 500;

/** A statement that does nothing: the ROLLBACK of a transaction SQLite has already rolled back. */
const NOTHING_TO_ROLL_BACK = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
} as unknown as SqliteStatement;

/**
 * better-sqlite3 with a bounded cache of prepared statements: Kysely prepares every query anew, which
 * cost 9-20 % of ingestion CPU. A statement is reusable; least recently used ones are dropped.
 */
export function cachedStatements(db: SQLite.Database, size = STATEMENT_CACHE): SqliteDatabase {
  const cache = new LRUCache<string, SqliteStatement>({ max: size });
  return {
    close: () => db.close(),
    prepare(text: string) {
      // SQLite rolls a transaction back by itself on SQLITE_FULL (and IOERR, NOMEM); Kysely's ROLLBACK
      // after it failed with "no transaction is active" and hid the real error (a full disk answered
      // 500). With nothing to roll back it is a no-op.
      if (!db.inTransaction && /^rollback\b/i.test(text)) return NOTHING_TO_ROLL_BACK;
      const hit = cache.get(text) as (SqliteStatement & { busy?: boolean }) | undefined;
      // A statement still being iterated (a streamed query) cannot run again; give that caller a new one.
      if (hit?.busy) return db.prepare(text);
      if (hit) return hit;
      const statement = db.prepare(text);
      cache.set(text, statement);
      return statement;
    },
  };
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** SQLite file; ':memory:' is allowed for unit tests. */
  sqliteFile?: string;
  poolSize?: number;
}

export function openDatabase(options: DatabaseOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client that loses its connection (server restart, terminated backend) is reported here;
    // without a listener it would crash the process. The pool replaces it on the next query.
    pool.on('error', reportIdleError);
    // A client in use (a transaction between two statements) that loses its connection emits 'error' as
    // well: its query fails by itself and the pool drops it on release, but without a listener the process
    // crashed (found by the PostgreSQL restart soak test).
    pool.on('connect', (client) => client.on('error', reportIdleError));
    // Kysely's connections destroy a lost client and read again once on a fresh one (db/pg-pool.ts).
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: keptPool(pool) }) });
    return {
      kysely,
      dialect: 'postgres',
      ops: dialectOps('postgres'),
      label: 'PostgreSQL',
      url: options.databaseUrl,
      fixed: namedStatements(pool),
      close: () => kysely.destroy(),
    };
  }
  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // NORMAL is durable under WAL against process crashes and loses at most the last commits on power
  // loss; FULL halves single-row write throughput. Chosen for ingestion speed (DESIGN §2).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(sqlite) }) });
  return {
    kysely,
    dialect: 'sqlite',
    ops: dialectOps('sqlite'),
    label: file,
    url: undefined,
    fixed: async <R>(query: CompiledQuery<R>, parameters = query.parameters) =>
      (await kysely.executeQuery(CompiledQuery.raw(query.sql, [...parameters]))).rows as R[],
    close: () => kysely.destroy(),
  };
}
