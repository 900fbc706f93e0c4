import {
  fromThousandths,
  linesTotalThousandths,
  NotificationKind,
  type WorkOrderAssignedEvent,
  type WorkOrderCompletedEvent,
} from '@fleetkeep/core';
import { type ChannelKind, oneByOne } from './deliveries.js';

/** The work-order events the channels send (kinds 128 and 256). */
export type WorkOrderChannelEvent = WorkOrderAssignedEvent | WorkOrderCompletedEvent;

/**
 * Work orders on the channels (docs/product.md "Work orders"): "assigned" (kind 128) and "completed"
 * (kind 256). The unit or trailer is the object; there is no service. A work order deleted before its
 * event was handled says nothing.
 */
export const workOrderKind: ChannelKind<WorkOrderChannelEvent> = {
  kindOf: (event) =>
    event.type === 'workOrder.completed'
      ? NotificationKind.workOrderCompleted
      : NotificationKind.workOrderAssigned,
  describe: oneByOne(async (db, { event }) => {
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
    if (!order) return undefined;
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
    return {
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
  }),
};
