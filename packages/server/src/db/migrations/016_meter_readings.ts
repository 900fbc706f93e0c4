import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Counters you can trust (modules/meter, telematics/store.ts; core contracts/meter.ts
 * says what is kept and for how long).
 *
 * - `units.last_ms`: the time of the last accepted message in Unix milliseconds, so that a tracker
 *   reporting twice in one second is not "out of order" (`last_time` stays in seconds for the rest).
 * - `units.meter_odo_device`, `units.meter_hours_device`: the device identifier whose odometer (engine
 *   hours) set the counter's baseline; null, or another identifier than the unit's, makes the next
 *   odometer (hours) reading a new baseline instead of a jump.
 * - `meter_readings`: a unit's meter history: refused readings with their reason, baselines, the first
 *   accepted reading of each fleet day and accepted refusals (who, when). `fleet_id` is the unit's fleet
 *   when the reading came; the history of a fleet lists its own rows only.
 */
export function meterReadings016(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('units').addColumn('last_ms', 'bigint').execute();
      await db.schema.alterTable('units').addColumn('meter_odo_device', 'text').execute();
      await db.schema.alterTable('units').addColumn('meter_hours_device', 'text').execute();
      await sql`update units set last_ms = last_time * 1000 where last_time is not null`.execute(db);

      await idColumn(db.schema.createTable('meter_readings'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.references('fleets.id').onDelete('cascade'))
        .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
        .addColumn('tm_ms', 'bigint', notNull)
        .addColumn('received_at', 'bigint', notNull)
        .addColumn('source', 'text', notNull)
        .addColumn('status', 'text', notNull)
        .addColumn('mileage', 'double precision')
        .addColumn('engine_hours', 'double precision')
        .addColumn('old_mileage', 'double precision')
        .addColumn('old_engine_hours', 'double precision')
        .addColumn('reason', 'text')
        .addColumn('payload', 'text')
        .addColumn('device_id', 'text', notNull)
        .addColumn('accepted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('accepted_at', 'bigint')
        .execute();
      // The history of a unit over a period, and the retention trim of a unit's old rows.
      await db.schema
        .createIndex('meter_readings_unit_tm')
        .on('meter_readings')
        .columns(['unit_id', 'tm_ms'])
        .execute();
      // The cap of refused readings per unit (newest kept).
      await db.schema
        .createIndex('meter_readings_unit_status')
        .on('meter_readings')
        .columns(['unit_id', 'status', 'id'])
        .execute();
      await sql`create index meter_readings_fleet on meter_readings (fleet_id) where fleet_id is not null`.execute(
        db,
      );
      // Corrections of a unit, newest first (the history lists them with the readings).
      await db.schema
        .createIndex('counter_corrections_unit_tm')
        .on('counter_corrections')
        .columns(['unit_id', 'tm'])
        .execute();
    },
  };
}
