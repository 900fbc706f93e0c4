import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The move of interval baselines with a device's new counter baseline survives a crash.
 *
 * `meter_readings.shift_pending`: 1 on a baseline row (telematics/store.ts) whose step
 * (`shift_mileage`, `shift_engine_hours`) is recorded in the readings' transaction but not yet applied
 * to the unit's assignments and open services; the step after the commit, and a run at every start for
 * what a killed process left, applies it and sets it to 0 in the same transaction
 * (telematics/baseline-shift.ts `applyPendingShifts`). Rows written before this migration count as
 * applied. The partial index keeps the start-up look-up and the per-unit one to the pending rows.
 */
export function meterShiftPending027(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('meter_readings')
        .addColumn('shift_pending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create index meter_readings_shift_pending on meter_readings (unit_id, id) where shift_pending = 1`.execute(
        db,
      );
    },
  };
}
