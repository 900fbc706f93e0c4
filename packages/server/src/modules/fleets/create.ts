import { ACL_ALL, FLEET_DEFAULTS, type FleetCreateBody, type FleetWire } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { loadAccountTree, requireAccountAdmin, requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict } from '../../http/errors.js';
import { fleetToWire } from './mappers.js';

/**
 * 409 on `body.n` when another fleet of the account has the name, compared without case and outer
 * blanks, as account names are (docs/product.md "Administration").
 */
export async function refuseTakenFleetName(
  db: Kysely<Database>,
  accountId: number,
  name: string,
  except: number | null = null,
) {
  let query = db
    .selectFrom('fleets')
    .select('id')
    .where('account_id', '=', accountId)
    .where((eb) => eb(eb.fn('lower', [eb.fn('trim', ['name'])]), '=', name.trim().toLowerCase()));
  if (except !== null) query = query.where('id', '!=', except);
  if (await query.executeTakeFirst())
    throw conflict('The account already has a fleet of that name', [
      { field: 'body.n', reason: 'Name is taken' },
    ]);
}

/**
 * POST /api/fleets (PRODUCT.md "Administration"): a new fleet in an account. Super users
 * create in any account, account admins in their own or one below it (`requireAccountAdmin`; 403
 * otherwise). The creator becomes a member with every right (ACL_ALL), except a super user, who sees
 * every fleet anyway (spec §6). The reply is the fleet as `GET /api/fleets` lists it for the creator.
 */
export async function createFleet(ctx: AppContext, actor: Actor, body: FleetCreateBody): Promise<FleetWire> {
  const accountId = body.aid ?? actor.accountId;
  await requireAccountAdmin(ctx, actor, accountId);
  let wire: FleetWire | undefined;
  await unitOfWork(ctx, async (trx, uow) => {
    await refuseTakenFleetName(trx, accountId, body.n);
    const row = await trx
      .insertInto('fleets')
      .values({
        account_id: accountId,
        name: body.n,
        tz: body.tz ?? FLEET_DEFAULTS.tz,
        cur: body.cur ?? FLEET_DEFAULTS.cur,
        ms: body.ms ?? FLEET_DEFAULTS.ms,
        fm: body.fm ?? FLEET_DEFAULTS.fm,
        ...(body.mdd !== undefined && { meter_daily_distance_max: body.mdd }),
        created_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!actor.su)
      await trx
        .insertInto('fleet_users')
        .values({ fleet_id: row.id, user_id: actor.userId, acl: ACL_ALL, since: now() })
        .execute();
    uow.afterCommit(async () => {
      // The acl as GET /api/fleets computes it (membership narrowed by the credential, admin by role).
      const { fleet, acl } = await requireFleet(ctx, actor, row.id, 'fleet.member');
      const tree = await loadAccountTree(ctx);
      wire = fleetToWire(fleet, acl, tree.isActive(fleet.account_id));
      // Sockets re-read their fleets on a fleet event, so the creator's open sessions receive it too.
      return [{ t: 'c', s: 'fleet', fid: row.id, d: { ...wire, acl: undefined } }];
    });
  });
  return wire!;
}
