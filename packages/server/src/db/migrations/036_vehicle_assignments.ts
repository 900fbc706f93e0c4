import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Vehicle assignments (modules/assignments; core contracts/assignments.ts; docs/product.md "Vehicle
 * assignments"): a driver (a user, member of the fleet) drives a unit from `start_at` to `end_at` (Unix
 * seconds; null while open), with the unit's meters at both ends (km, engine hours, as the units table
 * keeps them). One unit's assignments never overlap: the service checks it under the unit's row lock.
 *
 * `fleet_users.assigned_only`: 1 when the member reaches only the units currently assigned to them (the
 * driver preset of the access list, server auth/reach.ts).
 */
export function vehicleAssignments036(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('vehicle_assignments'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('start_at', 'bigint', notNull)
        .addColumn('end_at', 'bigint')
        .addColumn('start_mileage', 'double precision', notNull)
        .addColumn('start_engine_hours', 'double precision', notNull)
        .addColumn('end_mileage', 'double precision')
        .addColumn('end_engine_hours', 'double precision')
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema
        .createIndex('vehicle_assignments_unit')
        .on('vehicle_assignments')
        .columns(['fleet_id', 'unit_id', 'start_at'])
        .execute();
      await db.schema
        .createIndex('vehicle_assignments_user')
        .on('vehicle_assignments')
        .columns(['fleet_id', 'user_id', 'start_at'])
        .execute();
      await db.schema
        .alterTable('fleet_users')
        .addColumn('assigned_only', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
