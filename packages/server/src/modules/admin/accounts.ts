import type {
  AdminAccountBody,
  AdminAccountCreateBody,
  AdminAccountState,
  AdminAccountWire,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import {
  forgetAccountTree,
  loadAccountTree,
  mayAdministerAccounts,
  requireAccountAdmin,
} from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, conflict, invalidInput } from '../../http/errors.js';
import { refuseChangedFixed } from '../../http/fixed-fields.js';
import { setAccountState } from './service.js';

/**
 * Creating and renaming subordinate accounts (PRODUCT.md
 * "Administration"). Who: super users anywhere, account admins within their own subtree
 * (`requireAccountAdmin`). Activation stays in service.ts (`setAccountState`).
 */

/**
 * `requireAccountAdmin` on a tree that holds the account: an account made on another instance a moment
 * ago is not in this instance's cached tree yet (auth/access.ts), so the tree is read again then.
 */
export async function requireAccountAdminOf(ctx: AppContext, actor: Actor, accountId: number) {
  if (!(await loadAccountTree(ctx)).byId.has(accountId)) await loadAccountTree(ctx, true);
  return requireAccountAdmin(ctx, actor, accountId);
}

/** 409 error 10 when a sibling under `parent` already has the name (case-insensitive). */
async function requireFreeName(
  trx: Kysely<Database>,
  parent: number | null,
  name: string,
  except: number | null = null,
) {
  let query = trx
    .selectFrom('accounts')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .where('parent_id', parent === null ? 'is' : '=', parent);
  if (except !== null) query = query.where('id', '!=', except);
  if (await query.executeTakeFirst()) throw conflict('An account of that name already exists there');
}

/** The account as `GET /api/admin/accounts` lists it. */
async function accountWire(ctx: AppContext, accountId: number): Promise<AdminAccountWire> {
  const tree = await loadAccountTree(ctx, true);
  const a = tree.byId.get(accountId)!;
  const fleets = await ctx.db.kysely
    .selectFrom('fleets')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return {
    id: a.id,
    n: a.name,
    parent: a.parent_id,
    s: a.active,
    active: tree.isActive(a.id) ? 1 : 0,
    fleets: fleets.map((f) => ({ id: f.id, n: f.name })),
  };
}

/**
 * POST /api/admin/accounts: an active account below `parent` (default: the caller's own account); a
 * super user may create a top account with `parent: null`.
 */
export async function createAccount(
  ctx: AppContext,
  actor: Actor,
  body: AdminAccountCreateBody,
): Promise<AdminAccountWire> {
  const parent = body.parent === undefined ? actor.accountId : body.parent;
  if (parent === null) {
    if (!actor.su) throw accessDenied();
    if (!mayAdministerAccounts(actor, await loadAccountTree(ctx))) throw accessDenied();
  } else {
    await requireAccountAdminOf(ctx, actor, parent);
  }
  const id = await unitOfWork(ctx, async (trx) => {
    // Account tree changes one at a time, so two equal names cannot both pass the check.
    await ctx.db.ops.lockInTransaction(trx, 'accountState');
    await requireFreeName(trx, parent, body.n);
    const row = await trx
      .insertInto('accounts')
      .values({ name: body.n, parent_id: parent, active: 1, created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  forgetAccountTree(ctx);
  return accountWire(ctx, id);
}

/**
 * Renames an account (`n` of `PUT /api/admin/accounts/{id}`). Like the activation, an account admin
 * changes the accounts below its own, not its own.
 */
export async function renameAccount(
  ctx: AppContext,
  actor: Actor,
  accountId: number,
  name: string,
): Promise<void> {
  await requireAccountAdminOf(ctx, actor, accountId);
  // The stored name, not the cached tree's: another instance may have renamed it a moment ago.
  const stored = await ctx.db.kysely
    .selectFrom('accounts')
    .select('name')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  // The account as read, written back unchanged (round trip), is no rename: its own account too.
  if (stored.name === name) return;
  if (accountId === actor.accountId) throw invalidInput(undefined, 'An account cannot rename itself');
  await unitOfWork(ctx, async (trx) => {
    await ctx.db.ops.lockInTransaction(trx, 'accountState');
    const row = await trx
      .selectFrom('accounts')
      .select('parent_id')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    await requireFreeName(trx, row.parent_id, name, accountId);
    await trx.updateTable('accounts').set({ name }).where('id', '=', accountId).execute();
  });
  forgetAccountTree(ctx);
}

/**
 * PUT /api/admin/accounts/{id}: renames with `n`, then activates or suspends with `s` exactly as
 * before (`setAccountState` of service.ts). Without either there is nothing to do (400).
 */
export async function updateAccount(
  ctx: AppContext,
  actor: Actor,
  accountId: number,
  body: AdminAccountBody,
): Promise<AdminAccountState> {
  await requireAccountAdminOf(ctx, actor, accountId);
  // An account is not moved by an update (no route moves one): a parent other than its own is refused.
  refuseChangedFixed(body, { parent: (await loadAccountTree(ctx)).byId.get(accountId)!.parent_id });
  if (body.s === undefined && body.n === undefined)
    throw invalidInput([{ field: 'body.s', message: 'Give s (activation) or n (name)' }]);
  if (body.n !== undefined) await renameAccount(ctx, actor, accountId, body.n);
  if (body.s !== undefined) return setAccountState(ctx, actor, accountId, body.s);
  const tree = await loadAccountTree(ctx, true);
  const a = tree.byId.get(accountId)!;
  return { id: a.id, n: a.name, parent: a.parent_id, s: a.active, active: tree.isActive(a.id) ? 1 : 0 };
}
