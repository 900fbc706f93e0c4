import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Work orders (docs/product.md "Work orders"; core work-orders.ts and contracts/work-orders.ts): the
 * workshop's job on a unit or trailer (`object_type` 'u' or 't' with `object_id`, as services and issues
 * name their objects). `status` is the core status name; times are Unix seconds; `mileage` and
 * `engine_hours` the meter at completion (km, hours); `downtime_start` is fixed at completion (the
 * first linked issue's report, or the actual start); `service_id` the archived service record of the
 * unplanned work. Linked issues carry the work order in `issues.work_order_id` (migration 034); linked
 * services are rows of `work_order_services`; line items are `work_order_line_items` in the shape of
 * `service_line_items` (quantity and unit cost in thousandths).
 */
export function workOrders037(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('work_orders'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('object_type', 'text', notNull)
        .addColumn('object_id', 'integer', notNull)
        .addColumn('title', 'text', notNull)
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'text', notNull)
        .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('scheduled_start', 'bigint')
        .addColumn('scheduled_end', 'bigint')
        .addColumn('actual_start', 'bigint')
        .addColumn('actual_end', 'bigint')
        .addColumn('mileage', 'bigint')
        .addColumn('engine_hours', 'bigint')
        .addColumn('downtime_start', 'bigint')
        .addColumn('service_id', 'integer', (c) => c.references('services.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('work_orders_fleet_created')
        .on('work_orders')
        .columns(['fleet_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('work_orders_fleet_status')
        .on('work_orders')
        .columns(['fleet_id', 'status', 'scheduled_end'])
        .execute();
      await db.schema
        .createIndex('work_orders_fleet_object')
        .on('work_orders')
        .columns(['fleet_id', 'object_type', 'object_id'])
        .execute();

      await db.schema
        .createTable('work_order_services')
        .addColumn('work_order_id', 'integer', (c) =>
          c.notNull().references('work_orders.id').onDelete('cascade'),
        )
        .addColumn('service_id', 'integer', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('position', 'integer', notNull)
        .addPrimaryKeyConstraint('work_order_services_pk', ['work_order_id', 'service_id'])
        .execute();
      await db.schema
        .createIndex('work_order_services_service')
        .on('work_order_services')
        .column('service_id')
        .execute();

      await idColumn(db.schema.createTable('work_order_line_items'), dialect)
        .addColumn('work_order_id', 'integer', (c) =>
          c.notNull().references('work_orders.id').onDelete('cascade'),
        )
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('position', 'integer', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('kind', 'integer', notNull)
        .addColumn('qty', 'bigint', notNull)
        .addColumn('cost', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('work_order_line_items_order')
        .on('work_order_line_items')
        .column('work_order_id')
        .execute();
      await db.schema
        .createIndex('issues_fleet_work_order')
        .on('issues')
        .columns(['fleet_id', 'work_order_id'])
        .execute();
    },
  };
}
