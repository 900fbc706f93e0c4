import type { Kysely, Migration } from 'kysely';

/**
 * Only failed passwords count, and interval baselines follow a device's new counter baseline.
 *
 * - `login_failures.pending`: 1 while a try's password is being checked (auth/rate-limit.ts). Such a
 *   try is no failure: it only holds one of the few places that a name or an address may have in flight
 *   at once, so that parallel guesses cannot outrun the count. A wrong password turns it into a failure
 *   (0); a right one deletes it. A pending row older than a try can last (an instance that died) counts
 *   as a failure.
 * - `meter_readings.shift_mileage`, `shift_engine_hours`: on a baseline row (telematics/store.ts), the
 *   step by which the unit's interval assignments' "last service" mileage (engine hours) moved with the
 *   counter (PRODUCT.md "Service objects and counters"); null when no assignment moved.
 */
export function loginTriesMeterShifts023(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('login_failures')
        .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('meter_readings').addColumn('shift_mileage', 'double precision').execute();
      await db.schema
        .alterTable('meter_readings')
        .addColumn('shift_engine_hours', 'double precision')
        .execute();
    },
  };
}
