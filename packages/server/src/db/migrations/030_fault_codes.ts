import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Diagnostic trouble codes per unit (telematics/fault-codes.ts; core fault-codes.ts and
 * contracts/fault-codes.ts): one row per unit and code with when it was first and last seen (Unix
 * seconds, the readings' times), how many accepted readings reported it, and when and by whom it was
 * cleared (null while it is active). A code seen again after the clear reopens the same row. `fleet_id`
 * is the unit's fleet when the code was last seen, so that a fleet lists its own rows only.
 *
 * `fleets.critical_fault_codes`: the fleet setting "critical fault codes", a JSON list of codes or
 * prefixes (core contracts/fault-codes.ts); empty by default.
 */
export function faultCodes030(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('fault_codes'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.references('fleets.id').onDelete('cascade'))
        .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
        .addColumn('code', 'text', notNull)
        .addColumn('first_seen', 'bigint', notNull)
        .addColumn('last_seen', 'bigint', notNull)
        .addColumn('count', 'integer', notNull)
        .addColumn('cleared_at', 'bigint')
        .addColumn('cleared_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema
        .createIndex('fault_codes_unit_code')
        .unique()
        .on('fault_codes')
        .columns(['unit_id', 'code'])
        .execute();
      await db.schema
        .alterTable('fleets')
        .addColumn('critical_fault_codes', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    },
  };
}
