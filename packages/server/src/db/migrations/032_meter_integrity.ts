import type { Kysely, Migration } from 'kysely';

/**
 * Meter integrity (PRODUCT.md "Service objects and counters", docs/product.md "Meter integrity").
 *
 * - `meter_readings.source` names the entry point: osmand, teltonika, traccar, manual, fuel or import.
 *   Rows written before carry 'device' and keep it: which tracker protocol sent them is not known, so the
 *   history shows them as "Device" (legacy) rather than guessing OsmAnd.
 * - `voided_at`, `voided_by`, `void_reason`, `void_auto`: a voided reading is kept in the history but
 *   counts for nothing; `void_auto` = 1 when the counter rules voided it (out of sequence, the daily
 *   distance over the fleet's limit, engine hours faster than time), 0 when a manager did. A restore
 *   clears them.
 * - status 'replaced': a row that marks the meter as replaced (the next reading starts a new scale).
 * - `fleets.meter_daily_distance_max`: the fleet's daily distance limit, km (default 4,800).
 */
export function meterIntegrity032(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('meter_readings').addColumn('voided_at', 'bigint').execute();
      await db.schema
        .alterTable('meter_readings')
        .addColumn('voided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('meter_readings').addColumn('void_reason', 'text').execute();
      await db.schema
        .alterTable('meter_readings')
        .addColumn('void_auto', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('fleets')
        .addColumn('meter_daily_distance_max', 'double precision', (c) => c.notNull().defaultTo(4800))
        .execute();
    },
  };
}
