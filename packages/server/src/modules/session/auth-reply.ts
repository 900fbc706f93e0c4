import { LANGUAGES, type SessionAuthReply } from '@fleetkeep/core';
import type { FleetAccess } from '../../auth/access.js';
import { loadAccountTree, visibleFleets } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import { fleetToWire } from '../fleets/mappers.js';
import { settingsWithDefaults } from '../user/settings.js';

/**
 * The user's current fleet: the stored one while it is still visible, else the first fleet the user is
 * a member of (role-only fleets of admins and super users are not picked by themselves).
 */
export async function currentFleetId(
  ctx: AppContext,
  actor: Actor,
  fleets: FleetAccess[],
): Promise<number | null> {
  const user = await ctx.db.kysely
    .selectFrom('users')
    .select('fid')
    .where('id', '=', actor.userId)
    .executeTakeFirst();
  const stored = user?.fid ?? null;
  if (stored !== null && fleets.some((f) => f.fleet.id === stored)) return stored;
  const memberOf = await ctx.db.kysely
    .selectFrom('fleet_users')
    .select('fleet_id')
    .where('user_id', '=', actor.userId)
    .orderBy('fleet_id')
    .execute();
  const visible = new Set(fleets.map((f) => f.fleet.id));
  const pick = memberOf.find((m) => visible.has(m.fleet_id))?.fleet_id ?? null;
  if (pick !== stored)
    await ctx.db.kysely.updateTable('users').set({ fid: pick }).where('id', '=', actor.userId).execute();
  return pick;
}

/** The authentication reply of spec §3. */
export async function authReply(ctx: AppContext, actor: Actor, ssid: string): Promise<SessionAuthReply> {
  const [user, unitTypes, fleets, tree] = await Promise.all([
    ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', actor.userId).executeTakeFirstOrThrow(),
    ctx.db.kysely.selectFrom('unit_types').select(['id', 'name']).orderBy('id').execute(),
    visibleFleets(ctx, actor),
    loadAccountTree(ctx),
  ]);
  const fid = await currentFleetId(ctx, actor, fleets);
  return {
    session: ssid,
    classes: { avl_unit: 2, driver: 3, trailer: 4 },
    features: { fuel_fillings: 1, reports: 1, migration: 1 },
    user: { id: user.id, nm: user.full_name || user.name },
    admin: user.admin,
    su: user.su,
    unit_types: unitTypes.map((t) => ({ id: t.id, n: t.name })),
    docs: ctx.config.docsUrl ? { url: ctx.config.docsUrl, langs: ['en', 'ru'] } : null,
    gis: { url: ctx.config.gisUrl ? '/api/gis/tiles' : null },
    gis_sid: ctx.config.gisUrl ? ssid : null,
    model: { s: settingsWithDefaults(user.settings) },
    is_local: 1 as const,
    langs: [...LANGUAGES],
    fleets: fleets.map((f) => fleetToWire(f.fleet, f.acl, tree.isActive(f.fleet.account_id))),
    fid,
    config: {
      notification: ctx.config.notice,
      shutdownNotification: ctx.config.shutdown,
      forum: ctx.config.forumUrl ? { url: ctx.config.forumUrl, langs: ['en', 'ru'] } : null,
      // The addresses a tracker is set up with (DESIGN §3); a port of 0 is not listened on.
      trackers: {
        url: ctx.config.publicUrl,
        osmand: ctx.config.osmandPort > 0 ? ctx.config.osmandPort : null,
        teltonika: ctx.config.teltonikaPort > 0 ? ctx.config.teltonikaPort : null,
      },
    },
  };
}
