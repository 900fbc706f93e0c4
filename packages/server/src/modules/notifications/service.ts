import { randomUUID } from 'node:crypto';
import {
  ALERTS_LIST_MAX,
  type AlertSelectionBody,
  type FieldIssue,
  INAPP_SETUPS_MAX,
  type InAppSetupBody,
  type InAppSetupTestBody,
  type InAppSetupUpdateBody,
  notificationRecipients,
  SETTLED_FLAGS,
  testKindOf,
  WARNING_KINDS,
} from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput, notFound } from '../../http/errors.js';
import { fleetAudience, insertNotifications, notificationEvents } from './consumer.js';
import { notificationToWire, setupToWire } from './mappers.js';

/**
 * In-app notifications and the fleet's in-app set-ups (item 2); the route decisions
 * are in core contracts/notifications.ts. Set-ups: admin or viewNotification (`fleet.settings`). The
 * bell: viewService (`service.view`), and only the caller's own notifications in that fleet.
 */

const SETUP_NOT_FOUND = 'Notification set-up not found';

// --- set-ups ---

/** The users of `users` that are no members of the fleet, as field issues (400). */
async function checkMembers(ctx: AppContext, fleetId: number, users: readonly number[] | undefined) {
  if (!users || users.length === 0) return;
  const members = new Set(
    (
      await ctx.db.kysely
        .selectFrom('fleet_users')
        .select('user_id')
        .where('fleet_id', '=', fleetId)
        .where('user_id', 'in', [...new Set(users)])
        .execute()
    ).map((r) => r.user_id),
  );
  const issues: FieldIssue[] = users.flatMap((u, i) =>
    members.has(u) ? [] : [{ field: `body.users.${i}`, message: 'Not a member of this fleet' }],
  );
  if (issues.length) throw invalidInput(issues);
}

async function setupRow(ctx: AppContext, fleetId: number, id: number) {
  const row = await ctx.db.kysely
    .selectFrom('notification_setups')
    .selectAll()
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!row) throw notFound(SETUP_NOT_FOUND);
  return row;
}

export async function listSetups(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  const rows = await ctx.db.kysely
    .selectFrom('notification_setups')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  return { notifications: rows.map(setupToWire) };
}

export async function getSetup(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  return setupToWire(await setupRow(ctx, fleetId, id));
}

export async function createSetup(ctx: AppContext, actor: Actor, fleetId: number, body: InAppSetupBody) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  await checkMembers(ctx, fleetId, body.users);
  const t = now();
  const row = await unitOfWork(ctx, async (trx) => {
    const count = await trx
      .selectFrom('notification_setups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('fleet_id', '=', fleetId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= INAPP_SETUPS_MAX)
      throw conflict(`A fleet has at most ${INAPP_SETUPS_MAX} in-app set-ups`);
    return trx
      .insertInto('notification_setups')
      .values({
        fleet_id: fleetId,
        name: body.n,
        enabled: body.on,
        kinds: body.k,
        users: JSON.stringify([...new Set(body.users)]),
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return setupToWire(row);
}

export async function updateSetup(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  body: InAppSetupUpdateBody,
) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  await setupRow(ctx, fleetId, id);
  await checkMembers(ctx, fleetId, body.users);
  const row = await ctx.db.kysely
    .updateTable('notification_setups')
    .set({
      ...(body.n === undefined ? {} : { name: body.n }),
      ...(body.on === undefined ? {} : { enabled: body.on }),
      ...(body.k === undefined ? {} : { kinds: body.k }),
      ...(body.users === undefined ? {} : { users: JSON.stringify([...new Set(body.users)]) }),
      updated_at: now(),
    })
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound(SETUP_NOT_FOUND);
  return setupToWire(row);
}

export async function deleteSetup(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  const gone = await ctx.db.kysely
    .deleteFrom('notification_setups')
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw notFound(SETUP_NOT_FOUND);
  return { error: 0 as const };
}

/**
 * "Send test": the users the set-up as sent addresses (and who may get in-app
 * notifications of its lowest kind, as for a real event) get a notification naming no service.
 */
export async function testSetup(ctx: AppContext, actor: Actor, fleetId: number, body: InAppSetupTestBody) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  await checkMembers(ctx, fleetId, body.users);
  const kind = testKindOf(body.k);
  const t = now();
  const written = await unitOfWork(ctx, async (trx, uow) => {
    const saved =
      body.id === undefined
        ? undefined
        : await trx
            .selectFrom('notification_setups')
            .select('id')
            .where('id', '=', body.id)
            .where('fleet_id', '=', fleetId)
            .executeTakeFirst();
    const { candidates } = await fleetAudience(trx, fleetId);
    const recipients = notificationRecipients(kind, candidates, [
      { id: saved?.id ?? 0, on: true, k: body.k, users: body.users },
    ]);
    const eventId = randomUUID();
    const data = JSON.stringify({ f: 0, n: body.n ?? '', o: '' });
    const written = await insertNotifications(
      trx,
      recipients.map((r) => ({
        fleet_id: fleetId,
        user_id: r.userId,
        event_id: eventId,
        setup_id: saved?.id ?? null,
        kind,
        service_id: null,
        object_type: null,
        object_id: null,
        interval_id: null,
        data,
        tm: t,
        stm: null,
        created_at: t,
      })),
    );
    uow.emit(...notificationEvents(written));
    return written;
  });
  return { sent: written.length };
}

// --- the caller's notifications (the bell) ---

/** The caller's notifications in a fleet that the list shows (contract decision 5). */
function visibleAlerts(db: Kysely<Database>, userId: number, fleetId: number) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('services as s', 's.id', 'n.service_id')
    .where('n.user_id', '=', userId)
    .where('n.fleet_id', '=', fleetId)
    .where(
      sql<boolean>`not ((n.kind & ${sql.lit(WARNING_KINDS)}) <> 0 and (coalesce(s.f, 0) & ${sql.lit(SETTLED_FLAGS)}) <> 0)`,
    );
}

/**
 * "All of a kind" (spec §4 mark all read, delete all): the ones of that kind the caller's list shows,
 * not the warnings it hides (contract decision 5).
 */
function ofKind(db: Kysely<Database>, userId: number, fleetId: number, kind: number) {
  return visibleAlerts(db, userId, fleetId).where('n.kind', '=', kind).select('n.id');
}

export async function listAlerts(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  const db = ctx.db.kysely;
  const rows = await visibleAlerts(db, actor.userId, fleetId)
    .selectAll('n')
    .orderBy('n.tm', 'desc')
    .orderBy('n.id', 'desc')
    .limit(ALERTS_LIST_MAX)
    .execute();
  const unread = await visibleAlerts(db, actor.userId, fleetId)
    .where('n.stm', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { alerts: rows.map(notificationToWire), unread: Number(unread.n) };
}

/**
 * Marks notifications read (spec §4): only those still unread change, so "mark all read" of a kind
 * leaves the read time of the ones read before as it was. The caller's other sessions hear of it.
 */
export async function readAlerts(ctx: AppContext, actor: Actor, fleetId: number, body: AlertSelectionBody) {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  const stm = now();
  const rows = await unitOfWork(ctx, async (trx, uow) => {
    let query = trx
      .updateTable('notifications')
      .set({ stm })
      .where('user_id', '=', actor.userId)
      .where('fleet_id', '=', fleetId)
      .where('stm', 'is', null);
    query = body.event_ids
      ? query.where('event_id', 'in', body.event_ids)
      : query.where('id', 'in', ofKind(trx, actor.userId, fleetId, body.t as number));
    const rows = await query.returningAll().execute();
    uow.emit(
      ...rows.map((row) => ({
        t: 'u' as const,
        s: 'notification' as const,
        fid: fleetId,
        uid: actor.userId,
        by: actor.sessionId,
        d: notificationToWire(row),
      })),
    );
    return rows;
  });
  return { event_ids: rows.map((r) => r.event_id), stm };
}

/** Deletes notifications (spec §4 "Delete removes one or all of a kind"). */
export async function deleteAlerts(ctx: AppContext, actor: Actor, fleetId: number, body: AlertSelectionBody) {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  const rows = await unitOfWork(ctx, async (trx, uow) => {
    let query = trx
      .deleteFrom('notifications')
      .where('user_id', '=', actor.userId)
      .where('fleet_id', '=', fleetId);
    query = body.event_ids
      ? query.where('event_id', 'in', body.event_ids)
      : query.where('id', 'in', ofKind(trx, actor.userId, fleetId, body.t as number));
    const rows = await query.returning('event_id').execute();
    uow.emit(
      ...rows.map((row) => ({
        t: 'd' as const,
        s: 'notification' as const,
        fid: fleetId,
        uid: actor.userId,
        by: actor.sessionId,
        d: { id: row.event_id },
      })),
    );
    return rows;
  });
  return { event_ids: rows.map((r) => r.event_id) };
}
