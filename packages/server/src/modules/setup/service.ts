import { ACL_ALL, type SetupBody } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { hashPassword, newToken } from '../../auth/secrets.js';
import { type EndedSessions, endUserSessions } from '../../auth/sessions.js';
import { now } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../http/errors.js';

/**
 * The first run: while no user exists, one call creates the top account, the super
 * user and a first fleet. Shared by `POST /api/setup` and `npm run admin -- create-superuser`, so that
 * the web and the command line make exactly the same three rows.
 */

export const ALREADY_SET_UP = 'Fleetkeep is already set up';

async function anyUser(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** `GET /api/setup`: set-up is needed while the database holds no user. */
export async function setupNeeded(db: Db): Promise<boolean> {
  return !(await anyUser(db.kysely));
}

export interface SetupResult {
  accountId: number;
  userId: number;
  fleetId: number;
}

/**
 * Creates the top account, the super user (su = 1, argon2id hash) and the first fleet in one
 * transaction under the `setup` lock (PostgreSQL; SQLite's write transactions run one at a time), after
 * checking that no user exists: of two racing calls exactly one creates, the other gets 409 `{error: 10}`
 * and nothing is written. `within` runs in the same transaction (the route issues its login token there).
 */
export async function createFirstSuperUser<T>(
  db: Db,
  input: SetupBody,
  within: (trx: Kysely<Database>, result: SetupResult) => Promise<T>,
): Promise<SetupResult & { extra: T }> {
  // Hashing takes a while: done before the lock, so that the lock is held only for the writes.
  const hash = await hashPassword(input.password);
  return db.kysely.transaction().execute(async (trx) => {
    await db.ops.lockInTransaction(trx, 'setup');
    if (await anyUser(trx)) throw conflict(ALREADY_SET_UP);
    const t = now();
    const { id: accountId } = await trx
      .insertInto('accounts')
      .values({ name: input.organisation, parent_id: null, active: 1, created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: fleetId } = await trx
      .insertInto('fleets')
      .values({
        account_id: accountId,
        name: input.organisation,
        tz: input.tz,
        cur: input.cur ?? '',
        ms: input.ms,
        fm: input.fm,
        created_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: userId } = await trx
      .insertInto('users')
      .values({
        account_id: accountId,
        name: input.login,
        full_name: input.name,
        password_hash: hash,
        su: 1,
        admin: 0,
        settings: JSON.stringify({ lang: input.lang }),
        fid: fleetId,
        created_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The first user is also the first fleet's manager: one person can run the fleet without a second
    // login (docs/product.md "Working alone").
    await trx
      .insertInto('fleet_users')
      .values({ fleet_id: fleetId, user_id: userId, acl: ACL_ALL, since: t })
      .execute();
    const result = { accountId, userId, fleetId };
    const extra = await within(trx, result);
    return { ...result, extra };
  });
}

/** Shortest generated password of `reset-password` without `--password`. */
const GENERATED_PASSWORD_LENGTH = 20;

/** A random password for `reset-password` when none is given: URL-safe characters. */
export function generatePassword(): string {
  return newToken().slice(0, GENERATED_PASSWORD_LENGTH);
}

/**
 * `npm run admin -- reset-password <login>`: a new password (argon2id) for the user of that login (any
 * case); every session, login token and API token of the user ends in the same transaction. Undefined
 * when no such user exists.
 */
export async function resetPassword(
  db: Db,
  login: string,
  password: string,
): Promise<{ userId: number; ended: EndedSessions } | undefined> {
  const hash = await hashPassword(password);
  return db.kysely.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['name']), '=', login.toLowerCase()))
      .executeTakeFirst();
    if (!user) return undefined;
    await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
    const ended = await endUserSessions(trx, [user.id]);
    return { userId: user.id, ended };
  });
}
