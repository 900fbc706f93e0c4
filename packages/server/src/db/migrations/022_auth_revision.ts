import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * The access revision (auth/cache.ts): one row whose `rev` goes up in the same
 * transaction as every change that can narrow or widen what a credential reaches — a session or token
 * ended, a user renamed, deactivated, made admin or given a new password, a membership or acl changed,
 * an account made, suspended or reactivated, a fleet made, changed or removed. Each instance keeps
 * sessions and fleet access in memory and reads this one row per request: when it moved, the memory is
 * dropped, so a change acknowledged by one instance is seen by every instance's next request.
 *
 * The bump is a database trigger, so no writer (module, import, test harness, a manual SQL fix) can
 * forget it. Writes that change nothing of the kind (a session's `last_seen_at`, a token's use counter,
 * user settings, the current fleet) do not bump it. On PostgreSQL the trigger is deferred to commit and
 * bumps once per transaction: the row lock is taken last and held only while committing, so writers
 * never wait on each other earlier in their transactions nor deadlock through it.
 */
export const AUTH_REVISION_ID = 1;

interface Watched {
  table: string;
  insert: boolean;
  /** Columns whose update counts; `null`: any column. */
  columns: string[] | null;
}

const WATCHED: Watched[] = [
  { table: 'sessions', insert: false, columns: ['token_hash', 'user_id', 'access_token_id'] },
  { table: 'access_tokens', insert: false, columns: ['token_hash', 'user_id', 'kind', 'rights'] },
  {
    table: 'users',
    insert: false,
    columns: ['name', 'account_id', 'su', 'admin', 'active', 'password_hash'],
  },
  { table: 'fleet_users', insert: true, columns: null },
  { table: 'fleets', insert: true, columns: null },
  { table: 'accounts', insert: true, columns: null },
];

function updateOf(w: Watched): string {
  return w.columns ? `update of ${w.columns.join(', ')}` : 'update';
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const bump = `update auth_revision set rev = rev + 1 where id = ${AUTH_REVISION_ID};`;
  for (const w of WATCHED) {
    const events = ['delete', updateOf(w), ...(w.insert ? ['insert'] : [])];
    for (const [i, event] of events.entries()) {
      const name = `auth_revision_${w.table}_${i}`;
      await sql.raw(`create trigger ${name} after ${event} on ${w.table} begin ${bump} end`).execute(db);
    }
  }
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  // Once per transaction: a transaction-local setting remembers that this one has bumped already.
  await sql
    .raw(
      `create function auth_revision_bump() returns trigger language plpgsql as $$
       begin
         if current_setting('fleetkeep.auth_revision_bumped', true) is distinct from '1' then
           perform set_config('fleetkeep.auth_revision_bumped', '1', true);
           update auth_revision set rev = rev + 1 where id = ${AUTH_REVISION_ID};
         end if;
         return null;
       end $$`,
    )
    .execute(db);
  for (const w of WATCHED) {
    const events = ['delete', updateOf(w), ...(w.insert ? ['insert'] : [])].join(' or ');
    await sql
      .raw(
        `create constraint trigger auth_revision_${w.table} after ${events} on ${w.table}
         deferrable initially deferred for each row execute function auth_revision_bump()`,
      )
      .execute(db);
  }
}

export function authRevision022(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('auth_revision')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('rev', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into auth_revision (id, rev) values (${sql.lit(AUTH_REVISION_ID)}, 1)`.execute(db);
      if (dialect === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
    },
  };
}
