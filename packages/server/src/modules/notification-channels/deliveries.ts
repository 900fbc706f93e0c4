import { type ChannelEventSnapshot, type NotificationChannel, setupsFor } from '@fleetkeep/core';
import type { Insertable, Kysely } from 'kysely';
import { now } from '../../context.js';
import type { Database, NotificationDeliveryTable } from '../../db/schema.js';
import { recipientsOf } from './mappers.js';

/**
 * The one builder of channel deliveries (e-mail, bot, webhook): for each event of a batch, one pending
 * delivery per switched-on set-up of the event's fleet whose kinds include the event's kind and that
 * existed when it happened (core `setupsFor`), and per recipient of the set-up (each address, each chat;
 * a webhook's URL is its one receiver), each with a snapshot of what the message will say. What differs
 * between kinds (which kind an event is, and what its message says) is a `ChannelKind` descriptor, kept
 * beside the module it speaks for (services, fault codes, issues, inspections, work orders, …).
 */

export type NewDelivery = Insertable<NotificationDeliveryTable>;

/** The fleet's columns a snapshot and a kind's choice read. */
export interface ChannelFleet {
  id: number;
  name: string;
  tz: number;
  cur: string;
  ms: number;
  critical_fault_codes: string;
}

/** The fields every outbox event handed to the channels carries. */
export interface ChannelEvent {
  id: string;
  type: string;
  fid: number;
  at: number;
}

/**
 * What a message says beyond the event and the fleet: the object and the kind's own part (`fault`,
 * `issue`, …). `service` is the service a service event speaks of (empty otherwise); `serviceId` fills
 * the delivery's service column.
 */
export type SnapshotPart = Omit<
  ChannelEventSnapshot,
  'eventId' | 'type' | 'kind' | 'at' | 'fleet' | 'service'
> & {
  service?: ChannelEventSnapshot['service'];
  serviceId?: number;
};

/** An event that notifies as `kind`. */
export interface KindedEvent<E> {
  event: E;
  kind: number;
}

export interface ChannelKind<E extends ChannelEvent> {
  /** The kind the event notifies as, or null when it says nothing on the channels. */
  kindOf(event: E, fleet: ChannelFleet): number | null;
  /**
   * The snapshot parts of the events some set-up wants, in their order (loaded together, so that a
   * batch costs a few queries); undefined for one whose record is gone or moved to another fleet.
   */
  describe(db: Kysely<Database>, events: readonly KindedEvent<E>[]): Promise<(SnapshotPart | undefined)[]>;
}

/** The service of a message that is not about a service (id 0). */
export const NO_SERVICE: ChannelEventSnapshot['service'] = {
  id: 0,
  name: '',
  f: 0,
  plannedDate: null,
  limitMileage: null,
  limitEngineHours: null,
  cost: null,
};

/** Describes events one by one: for kinds whose batches are small (one event per user action). */
export function oneByOne<E>(
  describeOne: (db: Kysely<Database>, item: KindedEvent<E>) => Promise<SnapshotPart | undefined>,
): (db: Kysely<Database>, events: readonly KindedEvent<E>[]) => Promise<(SnapshotPart | undefined)[]> {
  return async (db, events) => {
    const out: (SnapshotPart | undefined)[] = [];
    for (const item of events) out.push(await describeOne(db, item));
    return out;
  };
}

/** The deliveries a batch of events of one descriptor makes (not yet written). */
export async function channelDeliveries<E extends ChannelEvent>(
  db: Kysely<Database>,
  events: readonly E[],
  kinds: ChannelKind<E>,
): Promise<NewDelivery[]> {
  if (events.length === 0) return [];
  const fleetIds = [...new Set(events.map((e) => e.fid))];
  const fleets = new Map(
    (
      await db
        .selectFrom('fleets')
        .select(['id', 'name', 'tz', 'cur', 'ms', 'critical_fault_codes'])
        .where('id', 'in', fleetIds)
        .execute()
    ).map((f) => [f.id, f as ChannelFleet]),
  );
  const kinded: KindedEvent<E>[] = [];
  for (const event of events) {
    const fleet = fleets.get(event.fid);
    const kind = fleet ? kinds.kindOf(event, fleet) : null;
    if (kind !== null) kinded.push({ event, kind });
  }
  if (kinded.length === 0) return [];
  const setups = (
    await db
      .selectFrom('channel_setups')
      .select(['id', 'fleet_id', 'channel', 'name', 'enabled', 'kinds', 'config', 'created_at'])
      .where('fleet_id', 'in', [...new Set(kinded.map((e) => e.event.fid))])
      .where('enabled', '=', 1)
      .orderBy('id')
      .execute()
  ).map((s) => ({ ...s, on: s.enabled === 1, k: s.kinds, since: Number(s.created_at) }));
  if (setups.length === 0) return [];
  const wanted = kinded
    .map((e) => ({
      ...e,
      chosen: setupsFor(
        setups.filter((s) => s.fleet_id === e.event.fid),
        e.kind,
        e.event.at,
      ),
    }))
    .filter((e) => e.chosen.length > 0);
  if (wanted.length === 0) return [];

  const parts = await kinds.describe(db, wanted);
  const created = now();
  const out: NewDelivery[] = [];
  wanted.forEach(({ event, kind, chosen }, i) => {
    const part = parts[i];
    const fleet = fleets.get(event.fid);
    if (!part || !fleet) return;
    const { serviceId, service, ...rest } = part;
    const snapshot: ChannelEventSnapshot = {
      eventId: event.id,
      type: event.type,
      kind,
      at: event.at,
      fleet: { id: fleet.id, name: fleet.name, tz: fleet.tz, cur: fleet.cur, ms: fleet.ms },
      service: service ?? NO_SERVICE,
      ...rest,
    };
    const text = JSON.stringify(snapshot);
    for (const setup of chosen)
      for (const recipient of recipientsOf(setup))
        out.push({
          recipient,
          test: 0,
          fleet_id: event.fid,
          channel: setup.channel as NotificationChannel,
          setup_id: setup.id,
          setup_name: setup.name,
          event_id: event.id,
          kind,
          service_id: serviceId ?? null,
          snapshot: text,
          status: 'pending',
          attempts: 0,
          next_at: created,
          last_at: null,
          error: null,
          created_at: created,
        });
  });
  return out;
}
