import {
  ACL_ALL,
  DAY_SECONDS,
  ErrorCode,
  type TokenRights,
  tokenAclMask,
  UserEventType,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { isShutOut } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { hashPassword, newToken, tokenHash, verifyPassword } from '../../auth/secrets.js';
import { type AppContext, now } from '../../context.js';
import type { Database, UserRow } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';

/** A login token lives until 30 days after its last use; a personal API token 10 days (PRODUCT.md). */
export const LOGIN_TOKEN_TTL = 30 * DAY_SECONDS;
export const API_TOKEN_TTL = 10 * DAY_SECONDS;
/** A session unused for this long is gone. */
const SESSION_IDLE_TTL = 30 * DAY_SECONDS;
/** Session `last_seen_at` is written at most this often, to keep reads cheap. */
const TOUCH_EVERY = 60;

function actorOf(user: UserRow, sessionId: number | null, aclMask: number, apiTokenId: number | null): Actor {
  return {
    userId: user.id,
    name: user.name,
    accountId: user.account_id,
    su: user.su === 1,
    admin: user.admin === 1,
    sessionId,
    aclMask,
    apiTokenId,
  };
}

export function parseRights(text: string): TokenRights {
  const raw = JSON.parse(text || '{}') as Partial<TokenRights>;
  return {
    intervals: raw.intervals ?? 'none',
    services: raw.services ?? 'none',
    archive: raw.archive ?? 'none',
  };
}

/** Reason of the 403 `{error: 7}` a user of a suspended account gets at login (issue 9 point 2). */
export const ACCOUNT_SUSPENDED = 'Account is suspended';
/** Reason of the 403 `{error: 7}` a deactivated user gets at login (issue 9 point 3). */
export const USER_DEACTIVATED = 'User is deactivated';

let decoyHash: Promise<string> | undefined;

/** A hash no password matches, checked for unknown names: they cost as long as a wrong password. */
function decoy(): Promise<string> {
  decoyHash ??= hashPassword(newToken());
  return decoyHash;
}

/** POST /api/login: checks the password and issues a login token (DESIGN §4). */
export async function login(ctx: AppContext, username: string, password: string, address: string) {
  // Counted before the password is checked (auth/rate-limit.ts): 429 while the name or address is locked.
  await ctx.limiter.begin(ctx.db.kysely, username, address);
  const user = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['name']), '=', username.toLowerCase()))
    .executeTakeFirst();
  // The answer time must not tell which user names exist.
  const valid = await verifyPassword(user?.password_hash ?? (await decoy()), password);
  if (!user || !valid) throw new AppError(ErrorCode.wrongCredentials);
  await ctx.limiter.succeed(ctx.db.kysely, username);
  // After the password check, so that the answer tells nothing to someone who does not know it. The
  // tree is read afresh: a suspension made on another instance a moment ago counts.
  if (await isShutOut(ctx, user, true)) throw new AppError(ErrorCode.accessDenied, ACCOUNT_SUSPENDED);
  // A deactivated user (users.active, admin/users.ts) cannot log in.
  if (user.active === 0) throw new AppError(ErrorCode.accessDenied, USER_DEACTIVATED);
  return issueLoginToken(ctx.db.kysely, user.id);
}

/** A new login token for a user (login, first run); pass a transaction to issue it with other writes. */
export async function issueLoginToken(
  db: Kysely<Database>,
  userId: number,
): Promise<{ access_token: string }> {
  const token = newToken();
  const t = now();
  await db
    .insertInto('access_tokens')
    .values({
      user_id: userId,
      kind: 'login',
      token_hash: tokenHash(token),
      description: '',
      rights: '{}',
      created_at: t,
      last_used_at: t,
      requests: 0,
      expires_at: t + LOGIN_TOKEN_TTL,
    })
    .execute();
  return { access_token: token };
}

/** Finds a live access token (login or API) and extends its life; undefined when unknown or expired. */
async function useAccessToken(ctx: AppContext, token: string, kinds: string[]) {
  const t = now();
  const row = await ctx.db.kysely
    .selectFrom('access_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash(token))
    .where('kind', 'in', kinds)
    .executeTakeFirst();
  if (!row || (row.expires_at !== null && row.expires_at < t)) return undefined;
  const ttl = row.kind === 'api' ? API_TOKEN_TTL : LOGIN_TOKEN_TTL;
  await ctx.db.kysely
    .updateTable('access_tokens')
    .set((eb) => ({ last_used_at: t, expires_at: t + ttl, requests: eb('requests', '+', 1) }))
    .where('id', '=', row.id)
    .execute();
  return row;
}

function maskOf(row: { kind: string; rights: string }): number {
  return row.kind === 'api' ? tokenAclMask(parseRights(row.rights)) : ACL_ALL;
}

/** GET /api/auth: turns a login or API token into a session. */
export async function openSession(
  ctx: AppContext,
  accessToken: string,
): Promise<{ ssid: string; actor: Actor }> {
  const tokenRow = await useAccessToken(ctx, accessToken, ['login', 'api']);
  if (!tokenRow) throw new AppError(ErrorCode.noSession, 'Session is not initialized');
  const user = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('id', '=', tokenRow.user_id)
    .executeTakeFirst();
  if (!user || (await isShutOut(ctx, user)))
    throw new AppError(ErrorCode.noSession, 'Session is not initialized');
  if (user.active === 0) throw new AppError(ErrorCode.noSession, 'Session is not initialized'); // deactivated
  const ssid = newToken();
  const t = now();
  const { id } = await ctx.db.kysely
    .insertInto('sessions')
    .values({
      token_hash: tokenHash(ssid),
      user_id: user.id,
      access_token_id: tokenRow.id,
      created_at: t,
      last_seen_at: t,
      props: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ssid, actor: actorOf(user, id, maskOf(tokenRow), tokenRow.kind === 'api' ? tokenRow.id : null) };
}

/** Resolves `Authorization: SSID <ssid>`. */
export async function resolveSession(ctx: AppContext, ssid: string): Promise<Actor | undefined> {
  const t = now();
  const row = await ctx.db.kysely
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('access_tokens', 'access_tokens.id', 'sessions.access_token_id')
    .selectAll('users')
    .select([
      'sessions.id as session_id',
      'sessions.last_seen_at',
      'access_tokens.kind as token_kind',
      'access_tokens.rights as token_rights',
      'access_tokens.id as token_id',
      'access_tokens.expires_at as token_expires',
    ])
    .where('sessions.token_hash', '=', tokenHash(ssid))
    .executeTakeFirst();
  if (!row || row.last_seen_at + SESSION_IDLE_TTL < t) return undefined;
  const isApi = row.token_kind === 'api';
  if (isApi && row.token_expires !== null && row.token_expires < t) return undefined;
  // A suspension ends the sessions (admin/service.ts); this also covers one opened in the meantime.
  if (await isShutOut(ctx, row)) return undefined;
  if (row.active === 0) return undefined; // deactivated user (admin/users.ts)
  if (t - row.last_seen_at >= TOUCH_EVERY) {
    await ctx.db.kysely
      .updateTable('sessions')
      .set({ last_seen_at: t })
      .where('id', '=', row.session_id)
      .execute();
  }
  if (isApi && row.token_id !== null) {
    await ctx.db.kysely
      .updateTable('access_tokens')
      .set((eb) => ({ last_used_at: t, expires_at: t + API_TOKEN_TTL, requests: eb('requests', '+', 1) }))
      .where('id', '=', row.token_id)
      .execute();
  }
  const mask = isApi ? maskOf({ kind: 'api', rights: row.token_rights ?? '{}' }) : ACL_ALL;
  return actorOf(row, row.session_id, mask, isApi ? row.token_id : null);
}

/** Resolves `Authorization: Bearer <personal API token>`. */
export async function resolveBearer(ctx: AppContext, token: string): Promise<Actor | undefined> {
  const row = await useAccessToken(ctx, token, ['api']);
  if (!row) return undefined;
  const user = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('id', '=', row.user_id)
    .executeTakeFirst();
  if (!user || (await isShutOut(ctx, user))) return undefined;
  if (user.active === 0) return undefined; // deactivated user (admin/users.ts)
  return actorOf(user, null, maskOf(row), row.id);
}

/** GET /api/logout: ends the session and revokes the login token behind it (DESIGN §4). */
export async function logout(ctx: AppContext, actor: Actor): Promise<void> {
  if (actor.sessionId === null) return;
  const session = await ctx.db.kysely
    .selectFrom('sessions')
    .select('access_token_id')
    .where('id', '=', actor.sessionId)
    .executeTakeFirst();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('sessions').where('id', '=', actor.sessionId!).execute();
    if (session?.access_token_id != null) {
      // Only a password login's token is revoked; a personal API token outlives its sessions.
      await trx
        .deleteFrom('access_tokens')
        .where('id', '=', session.access_token_id)
        .where('kind', '=', 'login')
        .execute();
    }
  });
  // Sockets of this session, on any instance, close with the logout event (spec §4, type 32).
  await ctx.bus.publish({
    t: 'e',
    s: 'user',
    fid: null,
    uid: actor.userId,
    d: { type: UserEventType.logout, sid: actor.sessionId },
  });
}

export async function setSessionProperty(ctx: AppContext, actor: Actor, name: string, value: unknown) {
  if (actor.sessionId === null) throw new AppError(ErrorCode.invalidInput, 'No session to set a property on');
  const row = await ctx.db.kysely
    .selectFrom('sessions')
    .select('props')
    .where('id', '=', actor.sessionId)
    .executeTakeFirstOrThrow();
  const props = { ...(JSON.parse(row.props) as Record<string, unknown>), [name]: value };
  await ctx.db.kysely
    .updateTable('sessions')
    .set({ props: JSON.stringify(props) })
    .where('id', '=', actor.sessionId)
    .execute();
  return props;
}
