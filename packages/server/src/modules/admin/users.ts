import {
  type AdminUserCreateBody,
  type AdminUsersReply,
  type AdminUserUpdateBody,
  type AdminUserWire,
  DEFAULT_SETTINGS,
  LANGUAGES,
} from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import { hashPassword } from '../../auth/secrets.js';
import { endedSessionEvents, endUserSessions } from '../../auth/sessions.js';
import { type AppContext, now } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, conflict, invalidInput } from '../../http/errors.js';
import { refuseChangedFixed } from '../../http/fixed-fields.js';
import { requireAccountAdminOf } from './accounts.js';

/**
 * Users of an account (PRODUCT.md "Administration"): super users manage every user,
 * account admins the users of the accounts within their subtree (`requireAccountAdmin`), and may grant
 * the account-admin flag there too. Super users are managed by super users only. A password (re)set, a
 * deactivation and a deletion end that user's sessions and API tokens (auth/sessions.ts).
 */

type Language = (typeof LANGUAGES)[number];

function languageOf(settings: string): Language {
  const lang = (JSON.parse(settings || '{}') as { lang?: unknown }).lang;
  return LANGUAGES.includes(lang as Language) ? (lang as Language) : DEFAULT_SETTINGS.lang;
}

export function adminUserToWire(u: UserRow): AdminUserWire {
  return {
    id: u.id,
    nm: u.name,
    n: u.full_name,
    lang: languageOf(u.settings),
    admin: u.admin === 1 ? 1 : 0,
    active: u.active === 0 ? 0 : 1,
    su: u.su === 1 ? 1 : 0,
    created: u.created_at,
  };
}

const loginTaken = () => conflict('That login is taken', [{ field: 'body.nm', reason: 'Login is taken' }]);

/** The user, when the actor may manage it; an unknown user answers like a foreign one (403). */
async function requireManagedUser(ctx: AppContext, actor: Actor, userId: number): Promise<UserRow> {
  const user = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw accessDenied();
  await requireAccountAdminOf(ctx, actor, user.account_id);
  if (user.su === 1 && !actor.su) throw accessDenied();
  return user;
}

async function reload(ctx: AppContext, userId: number): Promise<AdminUserWire> {
  const row = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return adminUserToWire(row);
}

/** GET /api/admin/accounts/{id}/users. */
export async function listUsers(ctx: AppContext, actor: Actor, accountId: number): Promise<AdminUsersReply> {
  await requireAccountAdminOf(ctx, actor, accountId);
  const rows = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return { users: rows.map(adminUserToWire) };
}

/** POST /api/admin/accounts/{id}/users: an active user of the account; the login is unique (409). */
export async function createUser(
  ctx: AppContext,
  actor: Actor,
  accountId: number,
  body: AdminUserCreateBody,
): Promise<AdminUserWire> {
  await requireAccountAdminOf(ctx, actor, accountId);
  const passwordHash = await hashPassword(body.password);
  try {
    const row = await ctx.db.kysely
      .insertInto('users')
      .values({
        account_id: accountId,
        name: body.nm,
        full_name: body.n,
        password_hash: passwordHash,
        su: 0,
        admin: body.admin,
        settings: JSON.stringify({ lang: body.lang }),
        fid: null,
        created_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reload(ctx, row.id);
  } catch (err) {
    if (ctx.db.ops.isUniqueViolation(err)) throw loginTaken();
    throw err;
  }
}

/**
 * PUT /api/admin/users/{id}: login, full name, language, account-admin flag, activation. Never `su`,
 * the account or the id (the contract drops them). Nobody deactivates or demotes themselves (400), so
 * an installation cannot lose its last administrator by a slip.
 */
export async function updateUser(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  body: AdminUserUpdateBody,
): Promise<AdminUserWire> {
  const user = await requireManagedUser(ctx, actor, userId);
  // `su` is never set here: a value other than the stored one is refused, not dropped.
  refuseChangedFixed(body, adminUserToWire(user));
  if (userId === actor.userId) {
    if (body.active === 0)
      throw invalidInput([{ field: 'body.active', message: 'Cannot deactivate yourself' }]);
    if (body.admin === 0 && user.admin === 1)
      throw invalidInput([{ field: 'body.admin', message: 'Cannot remove your own admin flag' }]);
  }
  const set: Partial<Pick<UserRow, 'name' | 'full_name' | 'admin' | 'active' | 'settings'>> = {};
  if (body.nm !== undefined) set.name = body.nm;
  if (body.n !== undefined) set.full_name = body.n;
  if (body.admin !== undefined) set.admin = body.admin;
  if (body.active !== undefined) set.active = body.active;
  if (body.lang !== undefined) {
    const settings = JSON.parse(user.settings || '{}') as Record<string, unknown>;
    set.settings = JSON.stringify({ ...settings, lang: body.lang });
  }
  const deactivating = body.active === 0 && user.active !== 0;
  try {
    await unitOfWork(ctx, async (trx, uow) => {
      if (Object.keys(set).length) await trx.updateTable('users').set(set).where('id', '=', userId).execute();
      // A deactivated user's sessions and API tokens end at once (spec §4 user event 32).
      if (deactivating) uow.emit(...endedSessionEvents(await endUserSessions(trx, [userId])));
    });
  } catch (err) {
    if (ctx.db.ops.isUniqueViolation(err)) throw loginTaken();
    throw err;
  }
  return reload(ctx, userId);
}

/**
 * PUT /api/admin/users/{id}/password: sets or resets the password and ends that user's sessions and API
 * tokens; the caller's own session survives when it resets its own.
 */
export async function setUserPassword(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  password: string,
): Promise<void> {
  await requireManagedUser(ctx, actor, userId);
  const passwordHash = await hashPassword(password);
  const keep = userId === actor.userId ? actor.sessionId : null;
  await unitOfWork(ctx, async (trx, uow) => {
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    uow.emit(...endedSessionEvents(await endUserSessions(trx, [userId], keep)));
  });
}

/**
 * DELETE /api/admin/users/{id}: the user, their sessions, tokens and fleet memberships; services they
 * created keep no creator. Counter corrections name their author and are kept, so a user who made one
 * cannot be deleted (409): deactivate them instead.
 */
export async function deleteUser(ctx: AppContext, actor: Actor, userId: number): Promise<void> {
  if (userId === actor.userId) throw invalidInput(undefined, 'Cannot delete yourself');
  await requireManagedUser(ctx, actor, userId);
  await unitOfWork(ctx, async (trx, uow) => {
    const correction = await trx
      .selectFrom('counter_corrections')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (correction) throw conflict('The user has corrected counters; deactivate the user instead');
    const ended = await endUserSessions(trx, [userId]);
    await trx.deleteFrom('fleet_users').where('user_id', '=', userId).execute();
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    uow.emit(...endedSessionEvents(ended));
  });
}
