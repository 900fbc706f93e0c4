import {
  type ChannelEventSnapshot,
  type IssueReportedEvent,
  type NotificationChannel,
  NotificationKind,
  notifiesAtOnce,
  setupsFor,
} from '@fleetkeep/core';
import type { Insertable, Kysely } from 'kysely';
import { now } from '../../context.js';
import type { Database, NotificationDeliveryTable } from '../../db/schema.js';
import { recipientsOf } from './mappers.js';

/**
 * The deliveries of "issue reported" events (kind 64, docs/product.md "Issues"): high and critical
 * issues only (core `notifiesAtOnce`), to each switched-on set-up of the fleet whose kinds include 64
 * and that existed when the issue was reported. The unit or trailer is the object; there is no service.
 * An issue deleted before its event was handled says nothing.
 */
export async function issueDeliveriesOf(
  db: Kysely<Database>,
  events: readonly IssueReportedEvent[],
): Promise<Insertable<NotificationDeliveryTable>[]> {
  const urgent = events.filter((e) => notifiesAtOnce(e.priority));
  if (urgent.length === 0) return [];
  const kind = NotificationKind.issueReported;
  const fleetIds = [...new Set(urgent.map((e) => e.fid))];
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
  for (const event of urgent) {
    const chosen = setupsFor(
      rules.filter((s) => s.fleet_id === event.fid),
      kind,
      event.at,
    );
    const fleet = fleets.get(event.fid);
    if (chosen.length === 0 || !fleet) continue;
    const issue = await db
      .selectFrom('issues')
      .leftJoin('users', 'users.id', 'issues.reported_by')
      .select(['issues.id', 'issues.title', 'issues.description', 'users.name', 'users.full_name'])
      .where('issues.id', '=', event.issueId)
      .where('issues.fleet_id', '=', event.fid)
      .executeTakeFirst();
    if (!issue) continue;
    const object = await db
      .selectFrom(event.objectType === 'u' ? 'units' : 'trailers')
      .select('name')
      .where('id', '=', event.objectId)
      .executeTakeFirst();
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
      object: { type: event.objectType, id: event.objectId, name: object?.name ?? '' },
      issue: {
        id: issue.id,
        title: issue.title,
        description: issue.description,
        priority: event.priority,
        reporter: issue.full_name || issue.name || '',
      },
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
