import { Acl } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { type AppContext, now } from '../context.js';
import type { Database } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { OBJECT_NOT_FOUND, type ObjectTable } from '../http/object-scope.js';
import type { FleetAccess } from './access.js';
import type { Actor } from './actor.js';

/**
 * What a member may reach of a fleet's service objects (docs/product.md "Vehicle assignments"). A
 * membership marked "assigned units only" (`fleet_users.assigned_only`, the access list's driver preset)
 * reaches the units currently assigned to the member, and no driver or trailer records; every other
 * caller reaches everything. The fleet's admins (the bit, from the membership or the account role)
 * always reach everything. Every module that lists or touches units asks here: units lists and pages,
 * fuel fillings, the object routes (http/needs.ts), issues and inspections.
 */

/** The unit ids the member may reach, or null for all; read once per request and fleet. */
const perRequest = new WeakMap<Actor, Map<number, Promise<number[] | null>>>();

/** The units currently assigned to a user in a fleet (started, not ended). */
export async function currentUnitsOf(db: Kysely<Database>, fleetId: number, userId: number, at = now()) {
  const rows = await db
    .selectFrom('vehicle_assignments')
    .select('unit_id')
    .distinct()
    .where('fleet_id', '=', fleetId)
    .where('user_id', '=', userId)
    .where('start_at', '<=', at)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', at)]))
    .execute();
  return rows.map((r) => r.unit_id).sort((a, b) => a - b);
}

async function readReach(ctx: AppContext, actor: Actor, fleetId: number): Promise<number[] | null> {
  const member = await ctx.db.kysely
    .selectFrom('fleet_users')
    .select('assigned_only')
    .where('fleet_id', '=', fleetId)
    .where('user_id', '=', actor.userId)
    .executeTakeFirst();
  if (member?.assigned_only !== 1) return null;
  return currentUnitsOf(ctx.db.kysely, fleetId, actor.userId);
}

/**
 * The unit ids of the fleet the caller may reach, sorted, or null when the caller reaches all of them.
 * `access` is what `requireFleet` answered for the same fleet.
 */
export function reachableUnits(ctx: AppContext, actor: Actor, access: FleetAccess): Promise<number[] | null> {
  if ((access.acl & Acl.admin) !== 0) return Promise.resolve(null);
  let byFleet = perRequest.get(actor);
  if (!byFleet) {
    byFleet = new Map();
    perRequest.set(actor, byFleet);
  }
  let reach = byFleet.get(access.fleet.id);
  if (!reach) {
    reach = readReach(ctx, actor, access.fleet.id);
    byFleet.set(access.fleet.id, reach);
    reach.catch(() => byFleet.delete(access.fleet.id));
  }
  return reach;
}

/** True when a reach (null: all) holds the unit. */
export function reaches(reach: readonly number[] | null, unitId: number): boolean {
  return reach === null || reach.includes(unitId);
}

/**
 * Throws the object's 404 unless the caller reaches it: a unit outside an "assigned units only"
 * member's reach, or any driver or trailer record for such a member, answers like an unknown one.
 */
export async function requireReach(
  ctx: AppContext,
  actor: Actor,
  access: FleetAccess,
  table: ObjectTable,
  objectId: number,
): Promise<void> {
  const reach = await reachableUnits(ctx, actor, access);
  if (reach === null) return;
  if (table !== 'units' || !reach.includes(objectId)) throw notFound(OBJECT_NOT_FOUND[table]);
}

/**
 * For the websocket (events/socket.ts): per fleet of `acls` (fleet id → effective acl) where the user's
 * membership is limited to assigned units and not admin, the units currently assigned to the user.
 * Fleets where the user reaches everything are left out.
 */
export async function limitedReach(
  ctx: AppContext,
  userId: number,
  acls: ReadonlyMap<number, number>,
): Promise<Map<number, number[]>> {
  const fleets = [...acls].filter(([, acl]) => (acl & Acl.admin) === 0).map(([id]) => id);
  const out = new Map<number, number[]>();
  if (fleets.length === 0) return out;
  const limited = await ctx.db.kysely
    .selectFrom('fleet_users')
    .select('fleet_id')
    .where('user_id', '=', userId)
    .where('assigned_only', '=', 1)
    .where('fleet_id', 'in', fleets)
    .execute();
  for (const { fleet_id } of limited)
    out.set(fleet_id, await currentUnitsOf(ctx.db.kysely, fleet_id, userId));
  return out;
}
