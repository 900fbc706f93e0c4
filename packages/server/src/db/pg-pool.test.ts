import { describe, expect, it } from 'vitest';
import { isRepeatable } from './pg-pool.js';

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
