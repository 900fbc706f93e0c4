import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Fuel fillings (spec §7 "Fuel fillings"; PRODUCT.md "Fuel fillings"; modules/fuel).
 *
 * - Volume and price are integer thousandths of `volume_unit` (spec §3 fuel volume units: 1 litres,
 *   2 US gallons), the fleet's fuel unit when the filling was written, so a filling keeps exactly what
 *   was entered; `total_cost` is integer thousandths of money (the entered total, `manual_cost`, or
 *   volume × price), kept on write so that sums need no arithmetic per row (DESIGN §2).
 * - Mileage in km (DESIGN §2). The unit is no foreign key: like archived services, a unit's fillings
 *   stay with the fleet's history when the unit leaves the fleet or is deleted.
 * - Attachments live in the generic `attachments` table with owner type `fuel` (migration 003).
 * - Lists read by fleet and time, by unit and time; consumption seeks the last full tank before a time.
 */
export function fuelFillings011(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('fuel_fillings'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('unit_id', 'integer', notNull)
        .addColumn('filled_at', 'bigint', notNull)
        .addColumn('fuel_type', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('volume', 'bigint', notNull)
        .addColumn('volume_unit', 'integer', notNull)
        .addColumn('price', 'bigint')
        .addColumn('manual_cost', 'bigint')
        .addColumn('total_cost', 'bigint', notNull)
        .addColumn('mileage', 'double precision')
        .addColumn('full_tank', 'integer', notNull)
        .addColumn('station', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('cf', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('fuel_fillings_fleet_time')
        .on('fuel_fillings')
        .columns(['fleet_id', 'filled_at'])
        .execute();
      await db.schema
        .createIndex('fuel_fillings_unit_time')
        .on('fuel_fillings')
        .columns(['unit_id', 'filled_at'])
        .execute();
      // The last full tank of a unit before a time (consumption of the first filling of a list).
      await sql`create index fuel_fillings_unit_full on fuel_fillings (unit_id, filled_at) where full_tank = 1`.execute(
        db,
      );
    },
  };
}
