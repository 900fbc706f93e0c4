import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Tyres and other components (docs/product.md "Components"; core components.ts and
 * contracts/components.ts). `components` holds each component of a fleet with its `kind` (tyre,
 * battery or a name of `component_kinds`), its `state` (core ComponentState) and its cost in
 * thousandths. `component_mounts` is its history: one row per mount period on a unit, with the
 * position and the odometers (km) at mount and dismount; an open period (`dismounted_at` null) is the
 * current mount, and a partial unique index keeps one open component per position of a unit.
 * `component_treads` are tread-depth readings in thousandths of a mm; `component_settings` the fleet's
 * threshold (no row: 3 mm).
 */
export function components041(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('component_kinds'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('name', 'text', notNull)
        .addUniqueConstraint('component_kinds_fleet_name', ['fleet_id', 'name'])
        .execute();

      await idColumn(db.schema.createTable('components'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('kind', 'text', notNull)
        .addColumn('serial', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('brand', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('model', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('cost', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('state', 'text', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('components_fleet_state')
        .on('components')
        .columns(['fleet_id', 'state', 'kind'])
        .execute();

      await idColumn(db.schema.createTable('component_mounts'), dialect)
        .addColumn('component_id', 'integer', (c) =>
          c.notNull().references('components.id').onDelete('cascade'),
        )
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
        .addColumn('position', 'text', notNull)
        .addColumn('mounted_at', 'bigint', notNull)
        .addColumn('mount_odometer', 'double precision', notNull)
        .addColumn('dismounted_at', 'bigint')
        .addColumn('dismount_odometer', 'double precision')
        .execute();
      await db.schema
        .createIndex('component_mounts_component')
        .on('component_mounts')
        .columns(['component_id', 'mounted_at'])
        .execute();
      await db.schema
        .createIndex('component_mounts_open_position')
        .on('component_mounts')
        .columns(['unit_id', 'position'])
        .unique()
        .where(sql.ref('dismounted_at'), 'is', null)
        .execute();

      await idColumn(db.schema.createTable('component_treads'), dialect)
        .addColumn('component_id', 'integer', (c) =>
          c.notNull().references('components.id').onDelete('cascade'),
        )
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('depth', 'bigint', notNull)
        .addColumn('at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('component_treads_component')
        .on('component_treads')
        .columns(['component_id', 'at'])
        .execute();

      await db.schema
        .createTable('component_settings')
        .addColumn('fleet_id', 'integer', (c) => c.primaryKey().references('fleets.id').onDelete('cascade'))
        .addColumn('tread_threshold', 'bigint', notNull)
        .execute();
    },
  };
}
