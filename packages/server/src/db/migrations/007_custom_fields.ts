import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Custom field definitions (spec §3 "Custom field", §7 "Custom fields"; PRODUCT.md "Administration").
 * The values live on their owners as `cf` JSON lists of `{id, v}` (units, drivers, trailers, services).
 */
export function customFields007(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('custom_fields'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('name', 'text', notNull)
        /** 1 text, 2 list (spec §3 `tp`). */
        .addColumn('type', 'integer', notNull)
        /** Options of a list field, a JSON list of strings (`s.options` on the wire). */
        .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
        /** Owner type (spec §3 `t`): u unit, d driver, t trailer, s service, f fuel filling. */
        .addColumn('owner_type', 'text', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      // One name per fleet and owner type, case-insensitively.
      await sql`create unique index custom_fields_name on custom_fields (fleet_id, owner_type, lower(name))`.execute(
        db,
      );
    },
  };
}
