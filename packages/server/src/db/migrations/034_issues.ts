import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Issues: the defects of a unit or trailer (docs/product.md "Issues"; core issues.ts and
 * contracts/issues.ts). `object_type` 'u' or 't' with `object_id`, as services name their objects;
 * `priority` is the rank 1 low … 4 critical, so lists sort by urgency; `status` the core status name.
 * The meter at the report in km and hours. `work_order_id` is set by the work-orders module (no
 * foreign key yet: its table comes later); `inspection_id` + `inspection_item` name the inspection's
 * failed item that opened it. `search` is the lower-cased title and description the list's words match.
 * Photos are rows of `attachments` with owner_type 'issue'.
 */
export function issues034(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('issues'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('object_type', 'text', notNull)
        .addColumn('object_id', 'integer', notNull)
        .addColumn('title', 'text', notNull)
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('priority', 'integer', notNull)
        .addColumn('status', 'text', notNull)
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('reported_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('reported_at', 'bigint', notNull)
        .addColumn('mileage', 'bigint')
        .addColumn('engine_hours', 'bigint')
        .addColumn('work_order_id', 'integer')
        .addColumn('inspection_id', 'integer')
        .addColumn('inspection_item', 'text')
        .addColumn('ended_at', 'bigint')
        .addColumn('ended_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('search', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('issues_fleet_reported')
        .on('issues')
        .columns(['fleet_id', 'reported_at'])
        .execute();
      await db.schema
        .createIndex('issues_fleet_object')
        .on('issues')
        .columns(['fleet_id', 'object_type', 'object_id'])
        .execute();
      await db.schema
        .createIndex('issues_fleet_status')
        .on('issues')
        .columns(['fleet_id', 'status', 'priority'])
        .execute();
    },
  };
}
