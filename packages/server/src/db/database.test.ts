import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { cachedStatements } from './database.js';

describe('SQLite statement cache', () => {
  it('reuses a prepared statement for the same text and keeps results correct', () => {
    const raw = new SQLite(':memory:');
    raw.exec('create table t (id integer primary key, v text)');
    const db = cachedStatements(raw);
    const insert = db.prepare('insert into t (v) values (?)');
    expect(db.prepare('insert into t (v) values (?)')).toBe(insert);
    insert.run(['a']);
    insert.run(['b']);
    expect(db.prepare('select v from t order by id').all([])).toEqual([{ v: 'a' }, { v: 'b' }]);
  });

  it('drops the least recently used statement beyond its size', () => {
    const raw = new SQLite(':memory:');
    const db = cachedStatements(raw, 2);
    const one = db.prepare('select 1');
    db.prepare('select 2');
    db.prepare('select 1'); // touch: 'select 2' is now the oldest
    db.prepare('select 3');
    expect(db.prepare('select 1')).toBe(one);
    const two = db.prepare('select 2');
    expect(db.prepare('select 2')).toBe(two);
  });

  it('gives a fresh statement while the cached one is still being iterated', () => {
    const raw = new SQLite(':memory:');
    raw.exec('create table t (v integer); insert into t values (1), (2)');
    const db = cachedStatements(raw);
    const first = db.prepare('select v from t');
    const iterator = first.iterate([]);
    iterator.next();
    const second = db.prepare('select v from t');
    expect(second).not.toBe(first);
    expect(second.all([])).toEqual([{ v: 1 }, { v: 2 }]);
    iterator.return?.();
  });

  it('lets SQLITE_FULL through when SQLite has rolled the transaction back itself', async () => {
    const raw = new SQLite(':memory:');
    raw.exec('create table t (v blob)');
    raw.pragma(`max_page_count = ${Number(raw.pragma('page_count', { simple: true })) + 2}`);
    const kysely = new Kysely<any>({ dialect: new SqliteDialect({ database: cachedStatements(raw) }) });
    const write = kysely.transaction().execute(async (trx) => {
      await sql`insert into t (v) values (${Buffer.alloc(100)})`.execute(trx);
      await sql`insert into t (v) values (${Buffer.alloc(100_000)})`.execute(trx);
    });
    await expect(write).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(raw.prepare('select count(*) as n from t').get()).toEqual({ n: 0 });
    await kysely.destroy();
  });
});
