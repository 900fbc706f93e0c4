import type {
  TokenRights,
  UnitListReply,
  UserSettings,
  UserTokenCreateReply,
  UserTokensReply,
  UserTokenWire,
} from '@fleetkeep/core';
import { isActingAccountAdmin, loadAccountTree, visibleFleets } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { newToken, tokenHash } from '../../auth/secrets.js';
import { type AppContext, now } from '../../context.js';
import { accessDenied, fleetCannotBeSet, notFound } from '../../http/errors.js';
import { unitToWire } from '../fleets/mappers.js';
import { API_TOKEN_TTL, parseRights, unwrittenTokenUses } from '../session/service.js';
import { patchedSettings, type Settings, settingsWithDefaults } from './settings.js';

function tokenToWire(row: {
  id: number;
  description: string;
  rights: string;
  created_at: number;
  last_used_at: number | null;
  requests: number;
  expires_at: number | null;
}): UserTokenWire {
  return {
    id: row.id,
    description: row.description,
    rights: parseRights(row.rights),
    created: row.created_at,
    last_used: row.last_used_at,
    requests: row.requests,
    expires: row.expires_at,
  };
}

/** Token management needs a password login: a token cannot mint or list tokens. */
function requirePasswordSession(actor: Actor): void {
  if (actor.apiTokenId !== null) throw accessDenied();
}

export async function listTokens(ctx: AppContext, actor: Actor): Promise<UserTokensReply> {
  requirePasswordSession(actor);
  const rows = await ctx.db.kysely
    .selectFrom('access_tokens')
    .selectAll()
    .where('user_id', '=', actor.userId)
    .where('kind', '=', 'api')
    .where('expires_at', '>=', now())
    .orderBy('id')
    .execute();
  // Uses this instance counted but has not written yet (session/service.ts writes them once a minute).
  return {
    tokens: rows.map((r) => tokenToWire({ ...r, requests: r.requests + unwrittenTokenUses(ctx, r.id) })),
  };
}

export async function createToken(
  ctx: AppContext,
  actor: Actor,
  description: string,
  rights: TokenRights,
): Promise<UserTokenCreateReply> {
  requirePasswordSession(actor);
  const value = newToken();
  const t = now();
  const row = await ctx.db.kysely
    .insertInto('access_tokens')
    .values({
      user_id: actor.userId,
      kind: 'api',
      token_hash: tokenHash(value),
      description,
      rights: JSON.stringify(rights),
      created_at: t,
      last_used_at: null,
      requests: 0,
      expires_at: t + API_TOKEN_TTL,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // The value is shown here once; only its hash is kept (PRODUCT.md "API tokens").
  return { token: tokenToWire(row), value };
}

export async function deleteToken(ctx: AppContext, actor: Actor, tokenId: number): Promise<{ error: 0 }> {
  requirePasswordSession(actor);
  const res = await ctx.db.kysely
    .deleteFrom('access_tokens')
    .where('id', '=', tokenId)
    .where('user_id', '=', actor.userId)
    .where('kind', '=', 'api')
    .executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound('Token not found');
  return { error: 0 } as const;
}

/** PUT /api/user/fleet: error 3 when the fleet is unknown, not the user's, or already current (spec §8). */
export async function switchFleet(ctx: AppContext, actor: Actor, fid: number): Promise<{ fid: number }> {
  const fleets = await visibleFleets(ctx, actor);
  const user = await ctx.db.kysely
    .selectFrom('users')
    .select('fid')
    .where('id', '=', actor.userId)
    .executeTakeFirstOrThrow();
  if (!fleets.some((f) => f.fleet.id === fid) || user.fid === fid) {
    throw fleetCannotBeSet();
  }
  await ctx.db.kysely.updateTable('users').set({ fid }).where('id', '=', actor.userId).execute();
  return { fid };
}

/**
 * PATCH /api/user/settings (spec §3 "User settings"): the known keys only (core contract), merged into
 * what is stored, at most core `SETTINGS_TOTAL_MAX` in all.
 */
export async function patchSettings(ctx: AppContext, actor: Actor, patch: Settings): Promise<UserSettings> {
  const user = await ctx.db.kysely
    .selectFrom('users')
    .select('settings')
    .where('id', '=', actor.userId)
    .executeTakeFirstOrThrow();
  const merged = patchedSettings(user.settings, patch);
  await ctx.db.kysely
    .updateTable('users')
    .set({ settings: JSON.stringify(merged) })
    .where('id', '=', actor.userId)
    .execute();
  return settingsWithDefaults(JSON.stringify(merged));
}

/**
 * GET /api/user/units: the units the platform user can see: those of the fleets the user may see,
 * plus, for account admins and super users, every unit of the accounts they administer.
 */
export async function userUnits(ctx: AppContext, actor: Actor): Promise<UnitListReply> {
  const [fleets, tree] = await Promise.all([visibleFleets(ctx, actor), loadAccountTree(ctx)]);
  const fleetIds = fleets.map((f) => f.fleet.id);
  let query = ctx.db.kysely.selectFrom('units').selectAll().orderBy('id');
  if (actor.su) {
    // every unit
  } else if (isActingAccountAdmin(actor, tree)) {
    const accounts = [...tree.byId.keys()].filter((a) => tree.isWithin(actor.accountId, a));
    query = query.where((eb) =>
      eb.or([eb('account_id', 'in', accounts), ...(fleetIds.length ? [eb('fleet_id', 'in', fleetIds)] : [])]),
    );
  } else {
    if (fleetIds.length === 0) return { units: [] };
    query = query.where('fleet_id', 'in', fleetIds);
  }
  return { units: (await query.execute()).map(unitToWire) };
}
