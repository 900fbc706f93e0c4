import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Hardening: state that every instance must share.
 *
 * - `login_failures`: one row per failed password (auth/rate-limit.ts; the limits are core
 *   contracts/session.ts `LOGIN_*`): the user name in lower case, the client address and the time in
 *   Unix milliseconds (`at_ms`: the throttle's short locks are counted in milliseconds, so that a lock
 *   ends when it says and not up to a second early). A try is inserted before its password is checked,
 *   so that parallel tries on several instances count each other; a successful login deletes the
 *   name's rows; rows older than the window and the longest lock go with the next failure.
 * - `client_faults`: the web app's fault reports (modules/client-errors), kept for super users whichever
 *   instance received them: the newest few hundred, for a few weeks.
 * - Settings stored before the known keys were enforced (core contracts/user.ts) may be megabytes: a row
 *   over the size cap keeps only the keys of spec §3 and the dashboard layout, as they were known here.
 */
export function loginAttempts015(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('login_failures'), dialect)
        .addColumn('name', 'text', notNull)
        .addColumn('address', 'text', notNull)
        .addColumn('at_ms', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('login_failures_name')
        .on('login_failures')
        .columns(['name', 'at_ms'])
        .execute();
      await db.schema
        .createIndex('login_failures_address')
        .on('login_failures')
        .columns(['address', 'at_ms'])
        .execute();
      await db.schema.createIndex('login_failures_at').on('login_failures').column('at_ms').execute();

      await idColumn(db.schema.createTable('client_faults'), dialect)
        .addColumn('kind', 'text', notNull)
        .addColumn('release', 'text', notNull)
        .addColumn('message', 'text', notNull)
        .addColumn('stack', 'text')
        .addColumn('url', 'text')
        .addColumn('user_agent', 'text', notNull)
        .addColumn('user_name', 'text')
        .addColumn('tm', 'bigint', notNull)
        .execute();
      await db.schema.createIndex('client_faults_tm').on('client_faults').column('tm').execute();

      await trimOversizedSettings(db as Kysely<SettingsDb>);
    },
  };
}

interface SettingsDb {
  users: { id: number; settings: string };
}

/** The settings keys of this migration's time (a later list does not change what it did). */
const KNOWN_KEYS = ['lang', 'dateFormat', 'timeFormat', 'notification', 'layer', 'help', 'dashboard'];
const SIZE_CAP = 4096;

async function trimOversizedSettings(db: Kysely<SettingsDb>): Promise<void> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'settings'])
    .where((eb) => eb(eb.fn('length', ['settings']), '>', SIZE_CAP))
    .execute();
  for (const row of rows) {
    let kept: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(row.settings);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        kept = Object.fromEntries(Object.entries(parsed).filter(([k]) => KNOWN_KEYS.includes(k)));
      }
    } catch {
      kept = {};
    }
    let text = JSON.stringify(kept);
    if (text.length > SIZE_CAP) text = '{}';
    await db.updateTable('users').set({ settings: text }).where('id', '=', row.id).execute();
  }
}
