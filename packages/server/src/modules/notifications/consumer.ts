import {
  DomainEventType,
  enabledKinds,
  type InAppSetupRule,
  initialReadTime,
  type LiveEvent,
  type NotificationCandidate,
  notificationKindOf,
  notificationRecipients,
  type ServiceDomainEvent,
} from '@fleetkeep/core';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { accountTreeOf } from '../../auth/access.js';
import { type AppContext, now } from '../../context.js';
import { chunks, IN_LIST } from '../../db/lookups.js';
import type { Database, NotificationSetupTable, NotificationTable } from '../../db/schema.js';
import type { AfterCommit, DomainEventConsumer, PublishedDomainEvent } from '../../events/consumers.js';
import { announce } from '../../events/unit-of-work.js';
import { notificationToWire, setupToWire } from './mappers.js';

/**
 * The in-app notifications consumer: turns service domain events into notifications
 * of the users they concern (core notifications.ts `notificationRecipients`), in the outbox consumer's
 * transaction, and sends each new one as a live event to its user's sockets after the commit.
 *
 * Exactly once: the outbox hands each event to this consumer once (events/consumers.ts), and the unique
 * (event id, user) index makes a second hand-over of the same event insert nothing and announce nothing.
 */

export const NOTIFICATIONS_CONSUMER = 'notifications.in-app';

/** The service events; `notificationKindOf` gives each its kind (DESIGN §6). */
export const NOTIFYING_EVENT_TYPES = [
  DomainEventType.serviceCreated,
  DomainEventType.serviceDue,
  DomainEventType.serviceOverdue,
  DomainEventType.serviceInProgress,
  DomainEventType.serviceClosed,
  DomainEventType.serviceRejected,
  DomainEventType.serviceReminder,
] as const;

type NewNotification = Insertable<NotificationTable>;
export type NotificationRow = Selectable<NotificationTable>;

/** Rows per insert: 13 columns each, well under both dialects' bound-parameter limits. */
const INSERT_ROWS = 500;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A set-up row as the rules read it. */
export function setupRule(row: Selectable<NotificationSetupTable>): InAppSetupRule {
  const wire = setupToWire(row);
  return { id: wire.id, on: wire.on === 1, k: wire.k, users: wire.users, since: Number(row.created_at) };
}

/** Who may be notified in a fleet, and the fleet's set-ups. */
export interface FleetAudience {
  candidates: NotificationCandidate[];
  setups: InAppSetupRule[];
}

/**
 * The members of a fleet as the rules read them: their membership acl (0 while the fleet's account, or
 * one above it, is suspended: auth/access.ts `effectiveAcl`), and nobody who cannot sign in (a
 * deactivated user, or one whose account is suspended). Read through `db`, the caller's transaction.
 */
export async function fleetAudience(db: Kysely<Database>, fleetId: number): Promise<FleetAudience> {
  const fleet = await db
    .selectFrom('fleets')
    .select('account_id')
    .where('id', '=', fleetId)
    .executeTakeFirst();
  const setups = (
    await db
      .selectFrom('notification_setups')
      .selectAll()
      .where('fleet_id', '=', fleetId)
      .orderBy('id')
      .execute()
  ).map(setupRule);
  if (!fleet) return { candidates: [], setups };
  const tree = accountTreeOf(await db.selectFrom('accounts').selectAll().execute());
  if (!tree.isActive(fleet.account_id)) return { candidates: [], setups };
  const members = await db
    .selectFrom('fleet_users')
    .innerJoin('users', 'users.id', 'fleet_users.user_id')
    .select([
      'users.id',
      'users.account_id',
      'users.active',
      'users.settings',
      'fleet_users.acl',
      'fleet_users.since',
    ])
    .where('fleet_users.fleet_id', '=', fleetId)
    .orderBy('users.id')
    .execute();
  const candidates = members
    .filter((m) => m.active === 1 && tree.isActive(m.account_id))
    .map((m) => ({
      userId: m.id,
      acl: m.acl,
      enabled: enabledKinds(parseJson(m.settings)),
      since: Number(m.since),
    }));
  return { candidates, setups };
}

const OBJECT_TABLES = { u: 'units', d: 'drivers', t: 'trailers' } as const;

/** The notifications the service events of a batch make (not yet written). */
export async function notificationsOf(
  db: Kysely<Database>,
  events: readonly ServiceDomainEvent[],
): Promise<NewNotification[]> {
  const withKind = events
    .map((event) => ({ event, kind: notificationKindOf(event) }))
    .filter((e): e is { event: ServiceDomainEvent; kind: number } => e.kind !== null);
  if (withKind.length === 0) return [];

  const serviceIds = [...new Set(withKind.map((e) => e.event.serviceId))];
  const services = new Map<
    number,
    { fleet_id: number; name: string; object_type: string; object_id: number }
  >();
  for (const ids of chunks(serviceIds, IN_LIST))
    for (const s of await db
      .selectFrom('services')
      .select(['id', 'fleet_id', 'name', 'object_type', 'object_id'])
      .where('id', 'in', ids)
      .execute())
      services.set(s.id, s);

  const objectNames = new Map<string, string>();
  for (const [type, table] of Object.entries(OBJECT_TABLES)) {
    const ids = [
      ...new Set([...services.values()].filter((s) => s.object_type === type).map((s) => s.object_id)),
    ];
    for (const part of chunks(ids, IN_LIST))
      for (const o of await db.selectFrom(table).select(['id', 'name']).where('id', 'in', part).execute())
        objectNames.set(`${type}${o.id}`, o.name);
  }

  const audiences = new Map<number, FleetAudience>();
  const created = now();
  const out: NewNotification[] = [];
  for (const { event, kind } of withKind) {
    const service = services.get(event.serviceId);
    // A service deleted before its event was handled, or a foreign one: nothing to show.
    if (!service || service.fleet_id !== event.fid) continue;
    let audience = audiences.get(event.fid);
    if (!audience) {
      audience = await fleetAudience(db, event.fid);
      audiences.set(event.fid, audience);
    }
    const data = JSON.stringify({
      f: event.f,
      n: service.name,
      o: objectNames.get(`${event.objectType}${event.objectId}`) ?? '',
    });
    // A set-up hears only events at or after its creation (core setupExistedAt).
    for (const r of notificationRecipients(kind, audience.candidates, audience.setups, event.at))
      out.push({
        fleet_id: event.fid,
        user_id: r.userId,
        event_id: event.id,
        setup_id: r.setupId,
        kind,
        service_id: event.serviceId,
        object_type: event.objectType,
        object_id: event.objectId,
        interval_id: event.intervalId,
        data,
        tm: event.at,
        stm: initialReadTime(r.userId, event.by, event.at),
        created_at: created,
      });
  }
  return out;
}

/**
 * Writes notifications, skipping any (event, user) pair already there (spec §4 "Each event id is
 * notified once only"); returns the rows it wrote.
 */
export async function insertNotifications(
  db: Kysely<Database>,
  rows: NewNotification[],
): Promise<NotificationRow[]> {
  const written: NotificationRow[] = [];
  for (const part of chunks(rows, INSERT_ROWS))
    written.push(
      ...(await db
        .insertInto('notifications')
        .values(part)
        .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
        .returningAll()
        .execute()),
    );
  return written;
}

/** New notifications as live events, each to its user's sessions only (DESIGN §6 `uid`). */
export function notificationEvents(rows: NotificationRow[]): LiveEvent[] {
  return rows.map((row) => ({
    t: 'c' as const,
    s: 'notification' as const,
    fid: row.fleet_id,
    uid: row.user_id,
    d: notificationToWire(row),
  }));
}

/** The outbox consumer of in-app notifications (registered in server.ts). */
export function notificationConsumer(ctx: AppContext): DomainEventConsumer {
  return {
    name: NOTIFICATIONS_CONSUMER,
    types: NOTIFYING_EVENT_TYPES,
    async handle(trx, events: PublishedDomainEvent[]): Promise<AfterCommit> {
      const written = await insertNotifications(
        trx,
        await notificationsOf(trx, events as ServiceDomainEvent[]),
      );
      // A consumer forwards what it wrote once its batch committed (events/consumers.ts).
      return () => announce(ctx, notificationEvents(written));
    },
  };
}
