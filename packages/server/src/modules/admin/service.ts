import type { AdminAccountState, AdminAccountsReply, LiveEvent } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import {
  ACCOUNTS_TOPIC,
  type AccountTree,
  forgetAccountTree,
  loadAccountTree,
  mayAdministerAccounts,
  requireAccountAdmin,
} from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { endedSessionEvents, endUserSessions } from '../../auth/sessions.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { fleetSuspendedEvents } from '../../events/domain.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, invalidInput } from '../../http/errors.js';
import { fleetToWire } from '../fleets/mappers.js';

/** Accounts the actor may activate or suspend: every account for a super user, else those below. */
async function manageableAccounts(ctx: AppContext, actor: Actor) {
  const tree = await loadAccountTree(ctx);
  if (!mayAdministerAccounts(actor, tree)) throw accessDenied();
  const ids = [...tree.byId.keys()].filter((a) =>
    actor.su ? a !== actor.accountId : a !== actor.accountId && tree.isWithin(actor.accountId, a),
  );
  return { tree, ids };
}

/** Users (super users and `except` left out) of `accountId` and every account below it, read in `trx`. */
async function usersBelow(trx: Kysely<Database>, accountId: number, except: number): Promise<number[]> {
  const accounts = await trx.selectFrom('accounts').select(['id', 'parent_id']).execute();
  const below = new Set([accountId]);
  // Walks down level by level; the tree is small and at most 64 deep (auth/access.ts).
  for (let grown = true; grown; ) {
    grown = false;
    for (const a of accounts)
      if (a.parent_id !== null && below.has(a.parent_id) && !below.has(a.id)) {
        below.add(a.id);
        grown = true;
      }
  }
  const users = await trx
    .selectFrom('users')
    .select('id')
    .where('account_id', 'in', [...below])
    .where('su', '=', 0)
    .where('id', '!=', except)
    .execute();
  return users.map((u) => u.id);
}

/** GET /api/admin/accounts (spec §7 "Admin"). */
export async function listAccounts(ctx: AppContext, actor: Actor): Promise<AdminAccountsReply> {
  const { tree, ids } = await manageableAccounts(ctx, actor);
  const fleets = ids.length
    ? await ctx.db.kysely
        .selectFrom('fleets')
        .select(['id', 'name', 'account_id'])
        .where('account_id', 'in', ids)
        .execute()
    : [];
  return {
    accounts: ids.map((accountId) => {
      const a = tree.byId.get(accountId)!;
      return {
        id: a.id,
        n: a.name,
        parent: a.parent_id,
        s: a.active,
        // Effective state: an account below a suspended one is suspended too.
        active: tree.isActive(a.id) ? 1 : 0,
        fleets: fleets.filter((f) => f.account_id === a.id).map((f) => ({ id: f.id, n: f.name })),
      };
    }),
    own: { id: actor.accountId, n: tree.byId.get(actor.accountId)?.name ?? '' },
  };
}

/**
 * PUT /api/admin/accounts/{id}: s = 1 activates, 0 suspends. The fleets below change visibility, so
 * each gets a fleet event: delete when suspended (the spec's "lost access" dialog), create when back.
 *
 * A suspension takes effect at once: the sessions, login tokens and API tokens of the
 * users of the account and of every account below it (super users excepted) are deleted in the same
 * transaction, and their sockets get user event 32 on every instance (spec §4). While suspended they
 * cannot log in (403 error 7 "Account is suspended", session/service.ts); a reactivation gives nothing
 * back: they log in again with their password and make new API tokens. Users of other accounts whose
 * fleet lies in the suspended account keep their session and get the fleet's delete event.
 */
export async function setAccountState(
  ctx: AppContext,
  actor: Actor,
  accountId: number,
  s: 0 | 1,
): Promise<AdminAccountState> {
  await requireAccountAdmin(ctx, actor, accountId);
  if (accountId === actor.accountId)
    throw invalidInput(undefined, 'An account cannot change its own activation');
  const before = await loadAccountTree(ctx, true);
  let after = before;
  await unitOfWork(ctx, async (trx, uow) => {
    // One activation change at a time; each fleet a suspension hides gets a domain event (events/domain.ts).
    await ctx.db.ops.lockInTransaction(trx, 'accountState');
    const suspended = await fleetSuspendedEvents(trx, accountId, s, now(), actor.userId);
    await trx.updateTable('accounts').set({ active: s }).where('id', '=', accountId).execute();
    await uow.record(suspended);
    uow.afterCommit(async () => {
      forgetAccountTree(ctx);
      await ctx.bus.wake(ACCOUNTS_TOPIC);
    });
    if (s === 0)
      uow.emit(
        ...endedSessionEvents(await endUserSessions(trx, await usersBelow(trx, accountId, actor.userId))),
      );
    uow.afterCommit(async () => {
      after = await loadAccountTree(ctx, true);
      return fleetVisibilityEvents(ctx, accountId, before, after);
    });
  });
  const a = after.byId.get(accountId)!;
  return { id: a.id, n: a.name, parent: a.parent_id, s: a.active, active: after.isActive(a.id) ? 1 : 0 };
}

/** A fleet that turns visible is created for its members' sockets, one that turns invisible deleted. */
async function fleetVisibilityEvents(
  ctx: AppContext,
  accountId: number,
  before: AccountTree,
  after: AccountTree,
): Promise<LiveEvent[]> {
  const affected = [...after.byId.keys()].filter((a) => after.isWithin(accountId, a));
  const fleets = await ctx.db.kysely
    .selectFrom('fleets')
    .selectAll()
    .where('account_id', 'in', affected)
    .execute();
  return fleets.flatMap((fleet): LiveEvent[] => {
    const is = after.isActive(fleet.account_id);
    if (before.isActive(fleet.account_id) === is) return [];
    return [
      is
        ? { t: 'c', s: 'fleet', fid: fleet.id, d: fleetToWire(fleet, 0, true) }
        : { t: 'd', s: 'fleet', fid: fleet.id, d: { id: fleet.id } },
    ];
  });
}
