import {
  ACL_ALL,
  aclNames,
  aclSatisfies,
  aclViolations,
  type FieldIssue,
  type FleetListReply,
  type FleetUpdateBody,
  type FleetUsersReply,
  type FleetWire,
  isValidAcl,
  UserEventType,
} from '@fleetkeep/core';
import { loadAccountTree, requireFleet, visibleFleets } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { fleetSettingsEvents } from '../../events/domain.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { invalidInput } from '../../http/errors.js';
import { refuseChangedFixed } from '../../http/fixed-fields.js';
import { moveFuelDays } from '../statistics/cost-days.js';
import { refuseTakenFleetName } from './create.js';
import { fleetToWire } from './mappers.js';

/** GET /api/fleets: the fleets the user can see, each with its effective acl. */
export async function listFleets(ctx: AppContext, actor: Actor): Promise<FleetListReply> {
  const [fleets, tree] = await Promise.all([visibleFleets(ctx, actor), loadAccountTree(ctx)]);
  return { fleets: fleets.map((f) => fleetToWire(f.fleet, f.acl, tree.isActive(f.fleet.account_id))) };
}

/**
 * PUT /api/fleets/{id}: fleet settings (PRODUCT.md "Administration"); admin only. The patch holds the
 * settings alone: the contract drops id, acl, aid (owner account) and s of a fleet as read.
 */
export async function updateFleet(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  patch: FleetUpdateBody,
): Promise<FleetWire> {
  const { acl, fleet: stored } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  // The owner account stays: a different `aid` is refused, not dropped.
  refuseChangedFixed(patch, { aid: stored.account_id });
  const set: Partial<{
    name: string;
    tz: number;
    cur: string;
    ms: number;
    fm: number;
    meter_daily_distance_max: number;
  }> = {};
  if (patch.n !== undefined) set.name = patch.n;
  if (patch.tz !== undefined) set.tz = patch.tz;
  if (patch.cur !== undefined) set.cur = patch.cur;
  if (patch.ms !== undefined) set.ms = patch.ms;
  if (patch.fm !== undefined) set.fm = patch.fm;
  if (patch.mdd !== undefined) set.meter_daily_distance_max = patch.mdd;
  /** The fleet as it now reads; a suspended fleet stays editable by those above it and says so. */
  const currentWire = async () => {
    const fleet = await ctx.db.kysely
      .selectFrom('fleets')
      .selectAll()
      .where('id', '=', fleetId)
      .executeTakeFirstOrThrow();
    const tree = await loadAccountTree(ctx);
    return fleetToWire(fleet, acl, tree.isActive(fleet.account_id));
  };
  let wire: FleetWire | undefined;
  if (Object.keys(set).length > 0) {
    // The change and its "fleet settings changed" domain event commit together (events/domain.ts).
    await unitOfWork(ctx, async (trx, uow) => {
      const query = trx.selectFrom('fleets').selectAll().where('id', '=', fleetId);
      const before = await ctx.db.ops.forUpdate(query).executeTakeFirstOrThrow();
      const events = fleetSettingsEvents(before, set, now(), actor.userId);
      // Receivers compare the fleet with their current one and show "fleet settings changed" (spec §4);
      // a save that changed nothing tells nobody.
      if (events.length === 0) return;
      if (set.name !== undefined) await refuseTakenFleetName(trx, before.account_id, set.name, fleetId);
      await trx.updateTable('fleets').set(set).where('id', '=', fleetId).execute();
      // statistics: fuel fillings count on the fleet days of the new zone (modules/statistics).
      if (set.tz !== undefined) await moveFuelDays(trx, fleetId, before.tz, set.tz);
      await uow.record(events);
      uow.afterCommit(async () => {
        wire = await currentWire();
        return [{ t: 'u', s: 'fleet', fid: fleetId, d: { ...wire, acl: undefined }, by: actor.sessionId }];
      });
    });
  }
  return wire ?? currentWire();
}

/** GET /api/fleets/{id}/users: the access list, and the users of the fleet's accounts who could join. */
export async function fleetUsers(ctx: AppContext, actor: Actor, fleetId: number): Promise<FleetUsersReply> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const tree = await loadAccountTree(ctx);
  const members = await ctx.db.kysely
    .selectFrom('fleet_users')
    .innerJoin('users', 'users.id', 'fleet_users.user_id')
    .select(['users.id', 'users.name', 'users.full_name', 'fleet_users.acl', 'fleet_users.assigned_only'])
    .where('fleet_users.fleet_id', '=', fleetId)
    .orderBy('users.name')
    .execute();
  const memberIds = new Set(members.map((m) => m.id));
  const accounts = [...tree.byId.keys()].filter((a) => tree.isWithin(fleet.account_id, a));
  const candidates = await ctx.db.kysely
    .selectFrom('users')
    .select(['id', 'name', 'full_name'])
    .where('account_id', 'in', accounts)
    .where('su', '=', 0)
    .orderBy('name')
    .execute();
  return {
    users: members.map((m) => ({
      id: m.id,
      nm: m.full_name || m.name,
      login: m.name,
      acl: m.acl,
      ao: m.assigned_only === 1 ? (1 as const) : (0 as const),
    })),
    candidates: candidates
      .filter((c) => !memberIds.has(c.id))
      .map((c) => ({ id: c.id, nm: c.full_name || c.name, login: c.name })),
  };
}

/**
 * PUT /api/fleets/{id}/users: replaces the access list, atomically. Every acl must respect the
 * dependencies of spec §6, and every user must belong to the fleet's account or one below it.
 */
export async function setFleetUsers(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  users: { id: number; acl: number; ao: 0 | 1 }[],
): Promise<FleetUsersReply> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const tree = await loadAccountTree(ctx);
  const ids = users.map((u) => u.id);
  const rows = ids.length
    ? await ctx.db.kysely
        .selectFrom('users')
        .select(['id', 'account_id', 'su'])
        .where('id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  // A super user is never offered, but one who is a member (the set-up's first user: docs/product.md
  // "Working alone") stays in the list, and their rights can change.
  const members = new Set(
    (
      await ctx.db.kysely
        .selectFrom('fleet_users')
        .select('user_id')
        .where('fleet_id', '=', fleetId)
        .execute()
    ).map((m) => m.user_id),
  );
  // One details shape on every route (core `fieldIssue`): the entry's field, what is wrong, its row.
  const errors: FieldIssue[] = [];
  const issue = (row: number, field: 'id' | 'acl', message: string) =>
    errors.push({ field: `body.users.${row}.${field}`, message, row });
  const seen = new Set<number>();
  users.forEach((u, index) => {
    const row = byId.get(u.id);
    if (!row || (row.su === 1 && !members.has(u.id)) || !tree.isWithin(fleet.account_id, row.account_id)) {
      issue(index, 'id', 'Unknown user');
    } else if (seen.has(u.id)) {
      issue(index, 'id', 'Duplicate user');
    } else if (u.acl & ~ACL_ALL) {
      // Bits outside spec §6 (8, 1024...) are no dependency problem; say what is wrong with them.
      issue(index, 'acl', `Unknown permission bits: ${u.acl & ~ACL_ALL}`);
    } else if (!isValidAcl(u.acl)) {
      const missing = aclViolations(u.acl).reduce((m, v) => m | v.missing, 0);
      issue(index, 'acl', `Permission dependencies are not met, missing: ${aclNames(missing)}`);
    }
    seen.add(u.id);
  });
  if (errors.length > 0) throw invalidInput(errors);
  await unitOfWork(ctx, async (trx, uow) => {
    const old = await trx
      .selectFrom('fleet_users')
      .select(['user_id', 'acl', 'since', 'assigned_only'])
      .where('fleet_id', '=', fleetId)
      .execute();
    await trx.deleteFrom('fleet_users').where('fleet_id', '=', fleetId).execute();
    if (users.length > 0) {
      // A member keeps the time they could first see the fleet; one who joins or gains the view right
      // now starts now (docs/product.md "Notifications of a new member").
      const t = now();
      const seeingSince = new Map(
        old.filter((o) => aclSatisfies(o.acl, 'service.view')).map((o) => [o.user_id, Number(o.since)]),
      );
      await trx
        .insertInto('fleet_users')
        .values(
          users.map((u) => ({
            fleet_id: fleetId,
            user_id: u.id,
            acl: u.acl,
            assigned_only: u.ao,
            since: aclSatisfies(u.acl, 'service.view') ? (seeingSince.get(u.id) ?? t) : t,
          })),
        )
        .execute();
    }
    // Spec §4 user event 64 ("Current fleet has been changed") to every user whose rights in the fleet
    // changed, joined or left; the fleet's settings did not change, so no fleet update event.
    // "Assigned units only" (auth/reach.ts) changes what the member sees as much as the acl does.
    const before = new Map(old.map((o) => [o.user_id, `${o.acl}:${o.assigned_only}`]));
    const after = new Map(users.map((u) => [u.id, `${u.acl}:${u.ao}`]));
    for (const userId of new Set([...before.keys(), ...after.keys()])) {
      if (before.get(userId) === after.get(userId)) continue;
      uow.emit({
        t: 'e',
        s: 'user',
        fid: null,
        uid: userId,
        d: { type: UserEventType.fleetChanged, fid: fleetId },
        by: actor.sessionId,
      });
    }
  });
  return fleetUsers(ctx, actor, fleetId);
}
