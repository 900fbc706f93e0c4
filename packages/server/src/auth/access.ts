import { Acl, aclSatisfies, type FleetNeedName, NEEDS } from '@fleetkeep/core';
import type { AppContext } from '../context.js';
import type { AccountRow, FleetRow } from '../db/schema.js';
import { accessDenied } from '../http/errors.js';
import type { Actor } from './actor.js';
import {
  type FleetMembershipRow,
  onRevisionMoved,
  rememberedFleet,
  rememberedVisible,
  unmarkRequestActor,
} from './cache.js';

/**
 * The one server-side permission check (spec §6, DESIGN §5). Every route that touches fleet data
 * goes through `requireFleet`; nothing else reads acl bits for authorisation.
 */

export interface AccountTree {
  byId: Map<number, AccountRow>;
  /** True when the account and all its ancestors are active. */
  isActive(accountId: number): boolean;
  /** True when `accountId` is `rootId` or lies below it. */
  isWithin(rootId: number, accountId: number): boolean;
}

/**
 * The account tree is read on every permission check, and accounts change rarely (activation): it is
 * kept per server context and dropped when accounts change here (`forgetAccountTree`) or a fleet event
 * arrives on the bus, which is how another instance's suspension or reactivation reaches this one
 * (admin/service.ts publishes one per fleet whose visibility changed). A tree that lacks an account a
 * check needs is read again, so accounts made elsewhere are never missed.
 */
interface TreeCache {
  tree: Promise<AccountTree> | null;
}

const trees = new WeakMap<AppContext, TreeCache>();

function cacheOf(ctx: AppContext): TreeCache {
  let cache = trees.get(ctx);
  if (!cache) {
    cache = { tree: null };
    trees.set(ctx, cache);
    // The listener lives as long as the bus; closing the server closes both.
    ctx.bus.subscribe((event) => {
      if (event.s === 'fleet') forgetAccountTree(ctx);
    });
    // An activation change wakes every instance, also when the account has no fleet (admin/service.ts).
    ctx.bus.onWake(ACCOUNTS_TOPIC, () => forgetAccountTree(ctx));
    // The bus is asynchronous across instances; the access revision read by each request is not
    // (auth/cache.ts): every account change bumps it, so the next request drops a stale tree.
    onRevisionMoved(ctx, () => forgetAccountTree(ctx));
  }
  return cache;
}

/** Bus wake-up topic of a change to `accounts`: every instance drops its cached tree. */
export const ACCOUNTS_TOPIC = 'accounts';

/** Drops the cached tree; call after writing to `accounts`. */
export function forgetAccountTree(ctx: AppContext): void {
  const cache = trees.get(ctx);
  if (cache) cache.tree = null;
}

/** The account tree, from the cache when it is current (`fresh` reads the table again). */
export async function loadAccountTree(ctx: AppContext, fresh = false): Promise<AccountTree> {
  const cache = cacheOf(ctx);
  if (fresh) forgetAccountTree(ctx);
  if (cache.tree) return cache.tree;
  const reading = readAccountTree(ctx);
  cache.tree = reading;
  // A failed read is not kept; an invalidation during a read has already dropped it.
  reading.catch(() => {
    if (cache.tree === reading) cache.tree = null;
  });
  return reading;
}

/** Reads the whole account tree from the database (uncached). */
async function readAccountTree(ctx: AppContext): Promise<AccountTree> {
  return accountTreeOf(await ctx.db.kysely.selectFrom('accounts').selectAll().execute());
}

/** The account tree of the given rows (for a caller that read them in its own transaction). */
export function accountTreeOf(rows: AccountRow[]): AccountTree {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const walk = (accountId: number, visit: (a: AccountRow) => boolean): boolean => {
    let current = byId.get(accountId);
    for (let depth = 0; current && depth < 64; depth++) {
      if (visit(current)) return true;
      current = current.parent_id === null ? undefined : byId.get(current.parent_id);
    }
    return false;
  };
  return {
    byId,
    isActive: (accountId) => byId.has(accountId) && !walk(accountId, (a) => a.active !== 1),
    isWithin: (rootId, accountId) => walk(accountId, (a) => a.id === rootId),
  };
}

/**
 * True when the user's account or an ancestor is suspended: such a user cannot log
 * in and has no session. Super users are never shut out. `fresh` reads the tree again (login).
 */
export async function isShutOut(
  ctx: AppContext,
  user: { su: number; account_id: number },
  fresh = false,
): Promise<boolean> {
  if (user.su === 1) return false;
  let tree = await loadAccountTree(ctx, fresh);
  if (!tree.byId.has(user.account_id)) tree = await loadAccountTree(ctx, true);
  return !tree.isActive(user.account_id);
}

/**
 * An account admin acts as one only while its own account is active: suspending an account takes the
 * rights of its admins too, and leaves the administrative view to those above it.
 */
export function isActingAccountAdmin(actor: Actor, tree: AccountTree): boolean {
  return actor.admin && tree.isActive(actor.accountId);
}

/** Acl of the actor on a fleet: membership bits narrowed by the credential, plus admin by role. */
export function effectiveAcl(
  actor: Actor,
  fleet: FleetRow,
  membershipAcl: number | undefined,
  tree: AccountTree,
  mask: number = actor.aclMask,
) {
  const roleAdmin =
    (mask & Acl.admin) !== 0 &&
    (actor.su || (isActingAccountAdmin(actor, tree) && tree.isWithin(actor.accountId, fleet.account_id)));
  // A suspended fleet keeps only the administrative view for those above it (PRODUCT.md "Administration").
  if (!tree.isActive(fleet.account_id)) return roleAdmin ? Acl.admin : 0;
  const member = (membershipAcl ?? 0) & mask;
  return roleAdmin ? member | Acl.admin : member;
}

export interface FleetAccess {
  fleet: FleetRow;
  acl: number;
}

/**
 * The acl bits the credential leaves for a need: telematics ingestion takes the admin bit from the user
 * even when an API token narrows the call (core `needs.ts`).
 */
export function needMask(actor: Actor, need: FleetNeedName): number {
  const rule = NEEDS[need];
  return 'ingest' in rule && rule.ingest ? actor.aclMask | Acl.admin : actor.aclMask;
}

/** True when a fleet access holds a named need (core `needs.ts`, spec §6). */
export function holds(access: FleetAccess, need: FleetNeedName): boolean {
  return aclSatisfies(access.acl, need);
}

/**
 * The fleet and membership rows read for one request: the route's declared need is checked before the
 * body is read (http/needs.ts), and the service function checks again with its own need; the second
 * check costs no round trip. The auth hook makes a new Actor per request, so nothing outlives it.
 */
const perRequest = new WeakMap<Actor, Map<number, Promise<FleetMembershipRow | undefined>>>();

function fleetWithMembership(ctx: AppContext, actor: Actor, fleetId: number) {
  let rows = perRequest.get(actor);
  if (!rows) {
    rows = new Map();
    perRequest.set(actor, rows);
  }
  let row = rows.get(fleetId);
  if (!row) {
    // The fleet and the actor's membership in one round trip, or none while the access revision
    // observed by this request is current (auth/cache.ts).
    row = rememberedFleet(ctx, actor, fleetId, () =>
      ctx.db.kysely
        .selectFrom('fleets')
        .leftJoin('fleet_users', (join) =>
          join.onRef('fleet_users.fleet_id', '=', 'fleets.id').on('fleet_users.user_id', '=', actor.userId),
        )
        .selectAll('fleets')
        .select('fleet_users.acl as member_acl')
        .where('fleets.id', '=', fleetId)
        .executeTakeFirst(),
    );
    rows.set(fleetId, row);
    row.catch(() => rows.delete(fleetId));
  }
  return row;
}

/** Forgets what this request read about fleets (after the request itself changed an acl or a fleet). */
export function forgetRequestFleets(actor: Actor): void {
  perRequest.delete(actor);
  // Nor may it use what other requests remembered: its own change has moved the access revision on.
  unmarkRequestActor(actor);
}

/**
 * Loads the fleet and checks the actor's rights on it against a named need. An unknown fleet and a
 * fleet the actor may not see answer alike (403), so ids of other fleets reveal nothing.
 */
export async function requireFleet(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  need: FleetNeedName,
): Promise<FleetAccess> {
  const row = await fleetWithMembership(ctx, actor, fleetId);
  if (!row) throw accessDenied();
  const { member_acl: memberAcl, ...fleet } = row;
  let tree = await loadAccountTree(ctx);
  if (!tree.byId.has(fleet.account_id) || !tree.byId.has(actor.accountId))
    tree = await loadAccountTree(ctx, true);
  const acl = effectiveAcl(actor, fleet, memberAcl ?? undefined, tree, needMask(actor, need));
  if (!aclSatisfies(acl, need)) throw accessDenied();
  return { fleet, acl };
}

/** Every fleet the actor can see, each with its effective acl (auth reply, GET /api/fleets). */
export async function visibleFleets(
  ctx: AppContext,
  actor: Actor,
  mask: number = actor.aclMask,
): Promise<FleetAccess[]> {
  const tree = await loadAccountTree(ctx);
  const { memberAcl, fleets } = await rememberedVisible(ctx, actor, () => readVisible(ctx, actor));
  const out: FleetAccess[] = [];
  for (const fleet of fleets) {
    const acl = effectiveAcl(actor, fleet, memberAcl.get(fleet.id), tree, mask);
    // A copy: the rows may be remembered for later requests (auth/cache.ts).
    if (acl !== 0) out.push({ fleet: { ...fleet }, acl });
  }
  return out;
}

/** The actor's memberships and the fleets its list may show (all of them for admins). */
async function readVisible(ctx: AppContext, actor: Actor) {
  const memberships = await ctx.db.kysely
    .selectFrom('fleet_users')
    .select(['fleet_id', 'acl'])
    .where('user_id', '=', actor.userId)
    .execute();
  const memberAcl = new Map(memberships.map((m) => [m.fleet_id, m.acl]));
  let query = ctx.db.kysely.selectFrom('fleets').selectAll().orderBy('id');
  if (!actor.su && !actor.admin) {
    if (memberAcl.size === 0) return { memberAcl, fleets: [] };
    query = query.where('id', 'in', [...memberAcl.keys()]);
  }
  return { memberAcl, fleets: await query.execute() };
}

/**
 * The `account.admin` need (core `needs.ts`): a super user, or an acting account admin whose credential
 * keeps the admin bit (an API token never administers).
 */
export function mayAdministerAccounts(actor: Actor, tree: AccountTree): boolean {
  return actor.su || (isActingAccountAdmin(actor, tree) && (actor.aclMask & Acl.admin) !== 0);
}

/** Super users, and account admins for accounts within their own subtree. */
export async function requireAccountAdmin(
  ctx: AppContext,
  actor: Actor,
  accountId: number,
): Promise<AccountTree> {
  let tree = await loadAccountTree(ctx);
  // An account made a moment ago on another instance is missing from this one's cached tree: read again.
  if (!tree.byId.has(accountId) || !tree.byId.has(actor.accountId)) tree = await loadAccountTree(ctx, true);
  if (!tree.byId.has(accountId)) throw accessDenied();
  if (actor.su || (mayAdministerAccounts(actor, tree) && tree.isWithin(actor.accountId, accountId)))
    return tree;
  throw accessDenied();
}
