import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Maintenance core (spec §3 interval, service, line item; PRODUCT.md "Intervals", "Services",
 * "Line-items library"). Distances in km, engine hours in hours, dates as Unix seconds, money and
 * quantities as integer thousandths (DESIGN §2).
 */
export function maintenance003(dialect: DialectName): Migration {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('line_items'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('name', 'text', notNull)
        /** 1 labour (task), 2 part, 4 fuel (spec §3 kinds). */
        .addColumn('kind', 'integer', notNull)
        .addColumn('cost', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', notNull)
        .execute();
      // No two items with the same name and type, case-insensitively (PRODUCT.md).
      await sql`create unique index line_items_name on line_items (fleet_id, kind, lower(name))`.execute(db);

      await idColumn(db.schema.createTable('intervals'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('name', 'text', notNull)
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('cnme', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cnmd', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cnmo', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cnehe', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cnehd', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cneho', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('de', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('dd', 'integer', (c) => c.notNull().defaultTo(0))
        /** Unit of the time frequency: d, w, m or y (spec §9). */
        .addColumn('du', 'text', (c) => c.notNull().defaultTo('d'))
        .addColumn('do', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await sql`create unique index intervals_name on intervals (fleet_id, lower(name))`.execute(db);

      await idColumn(db.schema.createTable('interval_line_items'), dialect)
        .addColumn('interval_id', 'integer', (c) =>
          c.notNull().references('intervals.id').onDelete('cascade'),
        )
        .addColumn('position', 'integer', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('kind', 'integer', notNull)
        .addColumn('qty', 'bigint', notNull)
        .addColumn('cost', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('interval_line_items_interval')
        .on('interval_line_items')
        .column('interval_id')
        .execute();

      await idColumn(db.schema.createTable('assignments'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('interval_id', 'integer', (c) =>
          c.notNull().references('intervals.id').onDelete('cascade'),
        )
        /** u unit, d driver, t trailer (spec §3). */
        .addColumn('object_type', 'text', notNull)
        .addColumn('object_id', 'integer', notNull)
        .addColumn('lcnm', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('lceh', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('ltm', 'bigint', notNull)
        .addColumn('cnt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('assignments_unique')
        .on('assignments')
        .columns(['interval_id', 'object_type', 'object_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('assignments_object')
        .on('assignments')
        .columns(['object_type', 'object_id'])
        .execute();

      await idColumn(db.schema.createTable('services'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('object_type', 'text', notNull)
        .addColumn('object_id', 'integer', notNull)
        .addColumn('interval_id', 'integer', (c) => c.references('intervals.id').onDelete('set null'))
        .addColumn('assignment_id', 'integer', (c) => c.references('assignments.id').onDelete('set null'))
        /** Status bit flags of spec §4. */
        .addColumn('f', 'integer', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .addColumn('start_date', 'bigint')
        .addColumn('end_date', 'bigint')
        .addColumn('planned_date', 'bigint')
        .addColumn('forecast_date', 'bigint')
        .addColumn('limit_mileage', 'double precision')
        .addColumn('limit_engine_hours', 'double precision')
        .addColumn('last_date', 'bigint')
        .addColumn('last_mileage', 'double precision')
        .addColumn('last_engine_hours', 'double precision')
        .addColumn('mileage', 'double precision')
        .addColumn('engine_hours', 'double precision')
        /** Total entered by hand, used when the service has no line items (PRODUCT.md "Services"). */
        .addColumn('manual_cost', 'bigint')
        .addColumn('notify_days', 'integer')
        .addColumn('cf', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema.createIndex('services_fleet_f').on('services').columns(['fleet_id', 'f']).execute();
      await db.schema
        .createIndex('services_object')
        .on('services')
        .columns(['object_type', 'object_id'])
        .execute();
      await db.schema
        .createIndex('services_fleet_end')
        .on('services')
        .columns(['fleet_id', 'end_date'])
        .execute();
      // One open (due or in progress) service per assignment (PRODUCT.md "The status engine").
      await sql`create unique index services_open_assignment on services (assignment_id) where assignment_id is not null and (f & 24) = 0`.execute(
        db,
      );

      await idColumn(db.schema.createTable('service_line_items'), dialect)
        .addColumn('service_id', 'integer', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('position', 'integer', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('kind', 'integer', notNull)
        .addColumn('qty', 'bigint', notNull)
        .addColumn('cost', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('service_line_items_service')
        .on('service_line_items')
        .column('service_id')
        .execute();

      await idColumn(db.schema.createTable('attachments'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        /** 'service' or 'fuel'. */
        .addColumn('owner_type', 'text', notNull)
        .addColumn('owner_id', 'integer', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('content_type', 'text', notNull)
        .addColumn('size', 'integer', notNull)
        .addColumn('data', blob, notNull)
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema
        .createIndex('attachments_owner')
        .on('attachments')
        .columns(['owner_type', 'owner_id'])
        .execute();
    },
  };
}
