import { ACL_ALL, DAY_SECONDS, type TokenRights, tokenAclMask, UserEventType } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { isShutOut } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { cachedCredential, observeRevision, rememberCredential } from '../../auth/cache.js';
import { hashPassword, newToken, presentedHash, tokenHash, verifyPassword } from '../../auth/secrets.js';
import { type AppContext, now } from '../../context.js';
import type { AccessTokenRow, Database, UserRow } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, invalidInput, noSession, wrongCredentials } from '../../http/errors.js';

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

/** Reason of the 403 `{error: 7}` a user of a suspended account gets at login. */
export const ACCOUNT_SUSPENDED = 'Account is suspended';
/** Reason of the 403 `{error: 7}` a deactivated user gets at login. */
export const USER_DEACTIVATED = 'User is deactivated';

let decoyHash: Promise<string> | undefined;

/** A hash no password matches, checked for unknown names: they cost as long as a wrong password. */
function decoy(): Promise<string> {
  decoyHash ??= hashPassword(newToken());
  return decoyHash;
}

/** POST /api/login: checks the password and issues a login token (DESIGN §4). */
export async function login(ctx: AppContext, username: string, password: string, address: string) {
  // 429 while the name or address is locked; only a wrong password counts (auth/rate-limit.ts).
  const attempt = await ctx.limiter.begin(ctx.db, username, address);
  let user: UserRow | undefined;
  let valid: boolean;
  try {
    user = await ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['name']), '=', username.toLowerCase()))
      .executeTakeFirst();
    // The answer time must not tell which user names exist.
    valid = await verifyPassword(user?.password_hash ?? (await decoy()), password);
  } catch (err) {
    await attempt.drop();
    throw err;
  }
  if (!user || !valid) {
    await attempt.fail();
    throw wrongCredentials();
  }
  await attempt.succeed();
  // After the password check, so that the answer tells nothing to someone who does not know it. The
  // tree is read afresh: a suspension made on another instance a moment ago counts.
  if (await isShutOut(ctx, user, true)) throw accessDenied(ACCOUNT_SUSPENDED);
  // A deactivated user (users.active, admin/users.ts) cannot log in.
  if (user.active === 0) throw accessDenied(USER_DEACTIVATED);
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
  if (!tokenRow) throw noSession();
  const user = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('id', '=', tokenRow.user_id)
    .executeTakeFirst();
  if (!user || (await isShutOut(ctx, user))) throw noSession();
  if (user.active === 0) throw noSession(); // deactivated
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

/** The session row the hot path reads: the session, its user and the token it was opened with. */
interface SessionLookup extends UserRow {
  session_id: number;
  last_seen_at: number;
  token_kind: string | null;
  token_rights: string | null;
  token_id: number | null;
  token_expires: number | null;
}

function readSession(ctx: AppContext, hash: string): Promise<SessionLookup | undefined> {
  return ctx.db.kysely
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
    .where('sessions.token_hash', '=', hash)
    .executeTakeFirst();
}

/** True when a session row has lapsed: idle too long, or its API token expired. */
function lapsed(row: SessionLookup, t: number): boolean {
  if (row.last_seen_at + SESSION_IDLE_TTL < t) return true;
  return row.token_kind === 'api' && row.token_expires !== null && row.token_expires < t;
}

/**
 * The session row, from memory when the access revision has not moved since it was read (auth/cache.ts),
 * else from the database. A remembered row that looks lapsed is read again: another instance may have
 * touched it since (`last_seen_at` and token lifetimes move without a revision bump, only forward).
 */
async function lookupSession(ctx: AppContext, hash: string, rev: number, t: number) {
  const key = `s:${hash}`;
  const hit = cachedCredential<SessionLookup>(ctx, rev, key);
  if (hit && !lapsed(hit, t)) return hit;
  const row = await readSession(ctx, hash);
  if (row) rememberCredential(ctx, rev, key, row);
  return row;
}

/** Resolves `Authorization: SSID <ssid>`; `rev` is set on the actor for the request's later checks. */
export async function resolveSession(ctx: AppContext, ssid: string): Promise<Actor | undefined> {
  const rev = await observeRevision(ctx);
  const t = now();
  const row = await lookupSession(ctx, presentedHash(ssid), rev, t);
  if (!row || lapsed(row, t)) return undefined;
  const isApi = row.token_kind === 'api';
  // A suspension ends the sessions (admin/service.ts); this also covers one opened in the meantime.
  if (await isShutOut(ctx, row)) return undefined;
  if (row.active === 0) return undefined; // deactivated user (admin/users.ts)
  if (t - row.last_seen_at >= TOUCH_EVERY) {
    // The remembered row moves with the write, so this instance touches a session once a minute.
    row.last_seen_at = t;
    await ctx.db.kysely
      .updateTable('sessions')
      .set({ last_seen_at: t })
      .where('id', '=', row.session_id)
      .execute();
  }
  if (isApi && row.token_id !== null) await countTokenUse(ctx, row.token_id, t);
  const mask = isApi ? maskOf({ kind: 'api', rights: row.token_rights ?? '{}' }) : ACL_ALL;
  return withRevision(actorOf(row, row.session_id, mask, isApi ? row.token_id : null), rev);
}

/** Resolves `Authorization: Bearer <personal API token>`. */
export async function resolveBearer(ctx: AppContext, token: string): Promise<Actor | undefined> {
  const rev = await observeRevision(ctx);
  const t = now();
  const hash = presentedHash(token);
  const key = `b:${hash}`;
  let found = cachedCredential<BearerLookup>(ctx, rev, key);
  if (!found || expired(found.token, t)) {
    found = await readBearer(ctx, hash);
    if (found) rememberCredential(ctx, rev, key, found);
  }
  if (!found || expired(found.token, t)) return undefined;
  const { token: row, user } = found;
  if (!user || (await isShutOut(ctx, user))) return undefined;
  if (user.active === 0) return undefined; // deactivated user (admin/users.ts)
  await countTokenUse(ctx, row.id, t);
  return withRevision(actorOf(user, null, maskOf(row), row.id), rev);
}

interface BearerLookup {
  token: AccessTokenRow;
  user: UserRow | undefined;
}

function expired(row: { expires_at: number | null }, t: number): boolean {
  return row.expires_at !== null && row.expires_at < t;
}

async function readBearer(ctx: AppContext, hash: string): Promise<BearerLookup | undefined> {
  const token = await ctx.db.kysely
    .selectFrom('access_tokens')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('kind', '=', 'api')
    .executeTakeFirst();
  if (!token) return undefined;
  const user = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('id', '=', token.user_id)
    .executeTakeFirst();
  return { token, user };
}

/** The access revision each resolved actor was checked at (read by the auth hook). */
const resolvedAt = new WeakMap<Actor, number>();

function withRevision(actor: Actor, rev: number): Actor {
  resolvedAt.set(actor, rev);
  return actor;
}

/** The access revision an actor was resolved at, if it was resolved by this module. */
export function revisionOf(actor: Actor): number | undefined {
  return resolvedAt.get(actor);
}

/**
 * A personal API token's use (its `requests`, `last_used_at` and the 10-day life from the last use) is
 * written at most once a minute per token and instance, like the session touch: the uses in between are
 * counted here and added by the next write, or by a timer a minute after the last write. The token list
 * adds this instance's unwritten uses (`unwrittenTokenUses`).
 */
interface TokenUses {
  pending: number;
  lastUse: number;
  writtenAt: number;
  timer: NodeJS.Timeout | null;
}

const tokenUses = new WeakMap<AppContext, Map<number, TokenUses>>();

function usesOf(ctx: AppContext): Map<number, TokenUses> {
  let uses = tokenUses.get(ctx);
  if (!uses) {
    uses = new Map();
    tokenUses.set(ctx, uses);
  }
  return uses;
}

/** Uses of an API token counted by this instance and not yet written (the token list adds them). */
export function unwrittenTokenUses(ctx: AppContext, tokenId: number): number {
  return tokenUses.get(ctx)?.get(tokenId)?.pending ?? 0;
}

async function writeTokenUses(ctx: AppContext, tokenId: number, use: TokenUses): Promise<void> {
  const count = use.pending;
  if (count === 0) return;
  use.pending = 0;
  use.writtenAt = use.lastUse;
  await ctx.db.kysely
    .updateTable('access_tokens')
    .set((eb) => ({
      last_used_at: use.lastUse,
      expires_at: use.lastUse + API_TOKEN_TTL,
      requests: eb('requests', '+', count),
    }))
    .where('id', '=', tokenId)
    .execute();
}

async function countTokenUse(ctx: AppContext, tokenId: number, t: number): Promise<void> {
  const uses = usesOf(ctx);
  let use = uses.get(tokenId);
  if (!use) {
    use = { pending: 0, lastUse: t, writtenAt: Number.NEGATIVE_INFINITY, timer: null };
    uses.set(tokenId, use);
  }
  use.pending++;
  use.lastUse = t;
  if (t - use.writtenAt >= TOUCH_EVERY) {
    await writeTokenUses(ctx, tokenId, use);
    return;
  }
  if (use.timer) return;
  const entry = use;
  entry.timer = setTimeout(
    () => {
      entry.timer = null;
      writeTokenUses(ctx, tokenId, entry).catch((err: Error) => {
        // The database is gone (server stopping): the count of the last minute is lost, nothing else.
        ctx.log.debug({ err }, 'API token use not written');
      });
    },
    (entry.writtenAt + TOUCH_EVERY - t) * 1000,
  );
  entry.timer.unref();
}

/** GET /api/logout: ends the session and revokes the login token behind it (DESIGN §4). */
export async function logout(ctx: AppContext, actor: Actor): Promise<void> {
  if (actor.sessionId === null) return;
  const session = await ctx.db.kysely
    .selectFrom('sessions')
    .select('access_token_id')
    .where('id', '=', actor.sessionId)
    .executeTakeFirst();
  await unitOfWork(ctx, async (trx, uow) => {
    await trx.deleteFrom('sessions').where('id', '=', actor.sessionId!).execute();
    if (session?.access_token_id != null) {
      // Only a password login's token is revoked; a personal API token outlives its sessions.
      await trx
        .deleteFrom('access_tokens')
        .where('id', '=', session.access_token_id)
        .where('kind', '=', 'login')
        .execute();
    }
    // Sockets of this session, on any instance, close with the logout event (spec §4, type 32).
    uow.emit({
      t: 'e',
      s: 'user',
      fid: null,
      uid: actor.userId,
      d: { type: UserEventType.logout, sid: actor.sessionId! },
    });
  });
}

export async function setSessionProperty(ctx: AppContext, actor: Actor, name: string, value: unknown) {
  if (actor.sessionId === null) throw invalidInput(undefined, 'No session to set a property on');
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
