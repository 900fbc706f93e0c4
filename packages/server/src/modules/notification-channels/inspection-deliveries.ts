import {
  type ChannelEventSnapshot,
  type InspectionSubmittedEvent,
  type NotificationChannel,
  NotificationKind,
  setupsFor,
} from '@fleetkeep/core';
import type { Insertable, Kysely } from 'kysely';
import { now } from '../../context.js';
import type { Database, NotificationDeliveryTable } from '../../db/schema.js';
import { recipientsOf } from './mappers.js';

/**
 * The deliveries of "inspection submitted" events with defects (kind 512, inspection failed;
 * docs/product.md "Inspections"): one per switched-on set-up of the fleet whose kinds include 512 and
 * that existed when the inspection was submitted, and per recipient. The object (unit or trailer) is
 * named; there is no service.
 */
export async function inspectionDeliveriesOf(
  db: Kysely<Database>,
  events: readonly InspectionSubmittedEvent[],
): Promise<Insertable<NotificationDeliveryTable>[]> {
  const failed = events.filter((e) => e.defects > 0 && e.worst !== null);
  if (failed.length === 0) return [];
  const kind = NotificationKind.inspectionFailed;
  const fleetIds = [...new Set(failed.map((e) => e.fid))];
  const setups = await db
    .selectFrom('channel_setups')
    .select(['id', 'fleet_id', 'channel', 'name', 'enabled', 'kinds', 'config', 'created_at'])
    .where('fleet_id', 'in', fleetIds)
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  if (setups.length === 0) return [];
  const rules = setups.map((s) => ({ ...s, on: s.enabled === 1, k: s.kinds, since: Number(s.created_at) }));
  const fleets = new Map(
    (
      await db
        .selectFrom('fleets')
        .select(['id', 'name', 'tz', 'cur', 'ms'])
        .where('id', 'in', fleetIds)
        .execute()
    ).map((f) => [f.id, f]),
  );
  const created = now();
  const out: Insertable<NotificationDeliveryTable>[] = [];
  for (const event of failed) {
    const fleet = fleets.get(event.fid);
    const object = await db
      .selectFrom(event.objectType === 't' ? 'trailers' : 'units')
      .select(['name', 'fleet_id'])
      .where('id', '=', event.objectId)
      .executeTakeFirst();
    // The fleet or the object gone, or moved to another fleet, before the event was handled.
    if (!fleet || !object || object.fleet_id !== event.fid) continue;
    const snapshot: ChannelEventSnapshot = {
      eventId: event.id,
      type: event.type,
      kind,
      at: event.at,
      fleet: { id: fleet.id, name: fleet.name, tz: fleet.tz, cur: fleet.cur, ms: fleet.ms },
      service: {
        id: 0,
        name: '',
        f: 0,
        plannedDate: null,
        limitMileage: null,
        limitEngineHours: null,
        cost: null,
      },
      object: { type: event.objectType, id: event.objectId, name: object.name },
      inspection: {
        id: event.inspectionId,
        form: event.formName,
        defects: event.defects,
        worst: event.worst!,
      },
    };
    const text = JSON.stringify(snapshot);
    for (const setup of setupsFor(
      rules.filter((s) => s.fleet_id === event.fid),
      kind,
      event.at,
    ))
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
          service_id: null,
          snapshot: text,
          status: 'pending',
          attempts: 0,
          next_at: created,
          last_at: null,
          error: null,
          created_at: created,
        });
  }
  return out;
}
