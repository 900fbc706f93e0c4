import type { MapKeysReply, MapKeyWire, PlatformKeysReply } from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { accessDenied, notFound } from '../../http/errors.js';

function requireSuperUser(actor: Actor): void {
  // Keys are platform configuration: super users only, and never through a personal API token.
  if (!actor.su || actor.apiTokenId !== null) throw accessDenied();
}

/**
 * `POST /api/remoteapi/user/get_keys` (spec §7): every key record keyed by id, for any signed-in user;
 * the client groups them per provider and picks its tile providers.
 */
export async function getKeys(ctx: AppContext): Promise<PlatformKeysReply> {
  const rows = await ctx.db.kysely.selectFrom('map_keys').selectAll().orderBy('id').execute();
  return Object.fromEntries(
    rows.map((r) => [String(r.id), { id: r.id, provider: r.provider, key: r.key, type: r.type }]),
  );
}

export async function listMapKeys(ctx: AppContext, actor: Actor): Promise<MapKeysReply> {
  requireSuperUser(actor);
  const rows = await ctx.db.kysely.selectFrom('map_keys').selectAll().orderBy('id').execute();
  return { map_keys: rows.map((r) => ({ id: r.id, provider: r.provider, key: r.key, type: r.type })) };
}

export async function createMapKey(
  ctx: AppContext,
  actor: Actor,
  input: { provider: string; key: string; type: number },
): Promise<MapKeyWire> {
  requireSuperUser(actor);
  const row = await ctx.db.kysely
    .insertInto('map_keys')
    .values({ provider: input.provider, key: input.key, type: input.type, created_at: now() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { id: row.id, provider: row.provider, key: row.key, type: row.type };
}

export async function deleteMapKey(ctx: AppContext, actor: Actor, id: number): Promise<{ error: 0 }> {
  requireSuperUser(actor);
  const res = await ctx.db.kysely.deleteFrom('map_keys').where('id', '=', id).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound('Map key not found');
  return { error: 0 } as const;
}
