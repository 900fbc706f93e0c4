import {
  type ChannelEventSnapshot,
  fromThousandths,
  linesTotalThousandths,
  type NotificationChannel,
  NotificationKind,
  setupsFor,
  type WorkOrderAssignedEvent,
  type WorkOrderCompletedEvent,
} from '@fleetkeep/core';
import type { Insertable, Kysely } from 'kysely';
import { now } from '../../context.js';
import type { Database, NotificationDeliveryTable } from '../../db/schema.js';
import { recipientsOf } from './mappers.js';

/**
 * The deliveries of work-order events (docs/product.md "Work orders"): "assigned" (kind 128) and
 * "completed" (kind 256), to each switched-on set-up of the fleet whose kinds include the kind and that
 * existed when it happened. The unit or trailer is the object; there is no service. A work order
 * deleted before its event was handled says nothing.
 */
export type WorkOrderChannelEvent = WorkOrderAssignedEvent | WorkOrderCompletedEvent;

const EMPTY_SERVICE = {
  id: 0,
  name: '',
  f: 0,
  plannedDate: null,
  limitMileage: null,
  limitEngineHours: null,
  cost: null,
};

export async function workOrderDeliveriesOf(
  db: Kysely<Database>,
  events: readonly WorkOrderChannelEvent[],
): Promise<Insertable<NotificationDeliveryTable>[]> {
  if (events.length === 0) return [];
  const fleetIds = [...new Set(events.map((e) => e.fid))];
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
  for (const event of events) {
    const kind =
      event.type === 'workOrder.completed'
        ? NotificationKind.workOrderCompleted
        : NotificationKind.workOrderAssigned;
    const chosen = setupsFor(
      rules.filter((s) => s.fleet_id === event.fid),
      kind,
      event.at,
    );
    const fleet = fleets.get(event.fid);
    if (chosen.length === 0 || !fleet) continue;
    const order = await db
      .selectFrom('work_orders')
      .leftJoin('users', 'users.id', 'work_orders.assignee_id')
      .select([
        'work_orders.id',
        'work_orders.title',
        'work_orders.mileage',
        'work_orders.engine_hours',
        'users.name',
        'users.full_name',
      ])
      .where('work_orders.id', '=', event.workOrderId)
      .where('work_orders.fleet_id', '=', event.fid)
      .executeTakeFirst();
    if (!order) continue;
    const lines = await db
      .selectFrom('work_order_line_items')
      .select(['qty', 'cost'])
      .where('work_order_id', '=', order.id)
      .execute();
    const object = await db
      .selectFrom(event.objectType === 'u' ? 'units' : 'trailers')
      .select('name')
      .where('id', '=', event.objectId)
      .executeTakeFirst();
    const completed = event.type === 'workOrder.completed';
    const snapshot: ChannelEventSnapshot = {
      eventId: event.id,
      type: event.type,
      kind,
      at: event.at,
      fleet: { id: fleet.id, name: fleet.name, tz: fleet.tz, cur: fleet.cur, ms: fleet.ms },
      service: EMPTY_SERVICE,
      object: { type: event.objectType, id: event.objectId, name: object?.name ?? '' },
      workOrder: {
        id: order.id,
        title: order.title,
        status: event.status,
        assignee: order.full_name || order.name || '',
        cost: fromThousandths(
          linesTotalThousandths(lines.map((l) => ({ qty: Number(l.qty), cost: Number(l.cost) }))),
        ),
        downtime: completed ? event.downtime : null,
        mileage: completed && order.mileage !== null ? Number(order.mileage) : null,
        engineHours: completed && order.engine_hours !== null ? Number(order.engine_hours) : null,
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
