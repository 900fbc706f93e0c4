import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

const fleet = (c: ColumnDefinitionBuilder) => c.notNull().references('fleets.id').onDelete('cascade');

/**
 * Parts and stock (docs/product.md "Parts and stock"; core parts.ts and contracts/parts.ts). Quantities
 * and money are integer thousandths, times Unix seconds. `parts.cost` is the moving average unit cost;
 * `part_stock` one row per part and location with its low-stock `threshold` (null: none);
 * `part_moves` every change (kind, reason, quantity, before and after, who, when, and the service
 * `s`, work order `w` or purchase order `p` it belongs to). Service and work-order lines may carry a
 * part and the location it is taken from. `fleets.allow_negative_stock` is 0 or 1 (default 0).
 */
export function parts039(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('stock_locations'), dialect)
        .addColumn('fleet_id', 'integer', fleet)
        .addColumn('name', 'text', notNull)
        .addColumn('kind', 'text', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .execute();
      await db.schema.createIndex('stock_locations_fleet').on('stock_locations').column('fleet_id').execute();

      await idColumn(db.schema.createTable('parts'), dialect)
        .addColumn('fleet_id', 'integer', fleet)
        .addColumn('number', 'text', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('manufacturer', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('unit', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('cost', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('line_item_id', 'integer', (c) => c.references('line_items.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('parts_fleet_number')
        .on('parts')
        .columns(['fleet_id', 'number'])
        .unique()
        .execute();

      await db.schema
        .createTable('part_stock')
        .addColumn('part_id', 'integer', (c) => c.notNull().references('parts.id').onDelete('cascade'))
        .addColumn('location_id', 'integer', (c) =>
          c.notNull().references('stock_locations.id').onDelete('cascade'),
        )
        .addColumn('fleet_id', 'integer', fleet)
        .addColumn('qty', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('threshold', 'bigint')
        .addPrimaryKeyConstraint('part_stock_pk', ['part_id', 'location_id'])
        .execute();
      await db.schema.createIndex('part_stock_fleet').on('part_stock').column('fleet_id').execute();

      await idColumn(db.schema.createTable('part_moves'), dialect)
        .addColumn('fleet_id', 'integer', fleet)
        .addColumn('part_id', 'integer', (c) => c.notNull().references('parts.id').onDelete('cascade'))
        .addColumn('location_id', 'integer', (c) =>
          c.notNull().references('stock_locations.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', notNull)
        .addColumn('reason', 'text')
        .addColumn('qty', 'bigint', notNull)
        .addColumn('before', 'bigint', notNull)
        .addColumn('after', 'bigint', notNull)
        .addColumn('ref_type', 'text')
        .addColumn('ref_id', 'integer')
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('at', 'bigint', notNull)
        .execute();
      await db.schema.createIndex('part_moves_part').on('part_moves').columns(['part_id', 'at']).execute();

      await idColumn(db.schema.createTable('purchase_orders'), dialect)
        .addColumn('fleet_id', 'integer', fleet)
        .addColumn('vendor', 'text', notNull)
        .addColumn('status', 'text', notNull)
        .addColumn('location_id', 'integer', (c) => c.references('stock_locations.id').onDelete('set null'))
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('ordered_at', 'bigint')
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('purchase_orders_fleet')
        .on('purchase_orders')
        .columns(['fleet_id', 'created_at'])
        .execute();

      await idColumn(db.schema.createTable('purchase_order_lines'), dialect)
        .addColumn('purchase_order_id', 'integer', (c) =>
          c.notNull().references('purchase_orders.id').onDelete('cascade'),
        )
        .addColumn('fleet_id', 'integer', fleet)
        .addColumn('position', 'integer', notNull)
        .addColumn('part_id', 'integer', (c) => c.notNull().references('parts.id').onDelete('cascade'))
        .addColumn('qty', 'bigint', notNull)
        .addColumn('cost', 'bigint', notNull)
        .addColumn('received', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('purchase_order_lines_order')
        .on('purchase_order_lines')
        .column('purchase_order_id')
        .execute();

      for (const table of ['service_line_items', 'work_order_line_items']) {
        await db.schema
          .alterTable(table)
          .addColumn('part_id', 'integer', (c) => c.references('parts.id').onDelete('set null'))
          .execute();
        await db.schema
          .alterTable(table)
          .addColumn('location_id', 'integer', (c) => c.references('stock_locations.id').onDelete('set null'))
          .execute();
      }
      await db.schema
        .alterTable('fleets')
        .addColumn('allow_negative_stock', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
