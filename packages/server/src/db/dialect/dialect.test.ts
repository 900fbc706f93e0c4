import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectOps, isConnectionLost, isUniqueViolation, LOCKS } from './index.js';

/** Compiles without a database (the SQL text only). */
const compiler = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** A stand-in select builder that records which locking clauses were asked for. */
class Query {
  constructor(readonly clauses: string[] = []) {}
  forUpdate() {
    return new Query([...this.clauses, 'for update']);
  }
  forShare() {
    return new Query([...this.clauses, 'for share']);
  }
  skipLocked() {
    return new Query([...this.clauses, 'skip locked']);
  }
}

describe('dialect differences (db/dialect)', () => {
  const sqlite = dialectOps('sqlite');
  const postgres = dialectOps('postgres');

  it('row locks: PostgreSQL adds the clauses, SQLite (serial writers) none', () => {
    expect(postgres.forUpdate(new Query()).clauses).toEqual(['for update']);
    expect(postgres.forShare(new Query()).clauses).toEqual(['for share']);
    expect(postgres.forUpdateSkipLocked(new Query()).clauses).toEqual(['for update', 'skip locked']);
    for (const lock of [sqlite.forUpdate, sqlite.forShare, sqlite.forUpdateSkipLocked])
      expect(lock(new Query()).clauses).toEqual([]);
    expect([sqlite.forUpdateText, postgres.forUpdateText]).toEqual(['', ' for update']);
    expect([sqlite.serialWriters, postgres.serialWriters]).toEqual([true, false]);
    expect([sqlite.writingCtes, postgres.writingCtes]).toEqual([false, true]);
  });

  it('one JSON array text of a row: json_array on SQLite, json_build_array as text on PostgreSQL', () => {
    const compiled = (ops: typeof sqlite) =>
      ops.jsonArray([sql.ref('s.id'), sql.ref('s.name')]).compile(compiler).sql;
    expect(compiled(sqlite)).toBe('json_array("s"."id", "s"."name")');
    expect(compiled(postgres)).toBe('json_build_array("s"."id", "s"."name")::text');
  });

  it('placeholders and unique violations', () => {
    expect([1, 2, 3].map(postgres.placeholder)).toEqual(['$1', '$2', '$3']);
    expect([1, 2].map(sqlite.placeholder)).toEqual(['?', '?']);
    expect(postgres.isUniqueViolation({ code: '23505' })).toBe(true);
    expect(postgres.isUniqueViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe(false);
    expect(sqlite.isUniqueViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe(true);
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' })).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });

  it("lost connections: PostgreSQL admin shutdown, class 08 and pg's own errors; SQLite has no connection", () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08003'])
      expect(postgres.isConnectionLost({ code }), code).toBe(true);
    expect(postgres.isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(postgres.isConnectionLost(new Error('Connection terminated'))).toBe(true);
    expect(
      postgres.isConnectionLost(new Error('Client has encountered a connection error and is not queryable')),
    ).toBe(true);
    for (const other of [{ code: '23505' }, { code: '57014' }, new Error('boom'), null])
      expect(postgres.isConnectionLost(other)).toBe(false);
    expect(sqlite.isConnectionLost({ code: 'SQLITE_BUSY' })).toBe(false);
    expect(isConnectionLost({ code: '57P01' })).toBe(true);
  });

  it('advisory locks have distinct keys that fit a PostgreSQL int', () => {
    const keys = Object.values(LOCKS);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  it('SQLite runs a session-locked task at once (one process)', async () => {
    expect(await sqlite.withSessionLock(undefined as never, 'engineSweep', 0, async () => 7)).toEqual({
      ran: true,
      value: 7,
    });
  });
});
