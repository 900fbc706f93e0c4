import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Running totals of the daily cost aggregates (DESIGN §9: the fleet statistics
 * call at ≥ 100 req/s also when no kept reply helps — a new period, or the first request after a
 * restart). Each `cost_days` row (migration 012) gets `run_<figure>`: the sum of `<figure>` over the
 * object's rows up to and including its day. A period's figures of an object are then the running
 * totals of its last row up to the period's end less those of its last row before the period's start
 * — two index seeks on the key (fleet, object type, object, day), whatever the period's length — instead
 * of a sum over every row of the period (modules/statistics/service.ts `periodUnitCosts`).
 *
 * Kept in the transaction of every cost write (modules/statistics/cost-days.ts `applyCostDelta`, the one
 * writer of `cost_days`), backfilled here from the rows that exist. Exact integers, as the daily figures.
 */
export const RUNNING_FIGURES = [
  'services_cost',
  'services_count',
  'fuel_cost',
  'fuel_count',
  'fuel_l',
  'fuel_gal',
] as const;

export function costRunningTotals021(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite adds one column per ALTER TABLE.
      for (const figure of RUNNING_FIGURES)
        await db.schema
          .alterTable('cost_days')
          .addColumn(`run_${figure}`, 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
      await backfillRunningTotals(db);
    },
  };
}

/**
 * Every row's running totals from the daily figures of its object's rows (one window per object), in
 * one statement; both dialects. Also what the tests use to check a database migrated with rows.
 */
export async function backfillRunningTotals<DB>(db: Kysely<DB>): Promise<void> {
  const sets = RUNNING_FIGURES.map((f) => sql`${sql.ref(`run_${f}`)} = ${sql.ref(`w.r_${f}`)}`);
  const sums = RUNNING_FIGURES.map(
    (f) =>
      sql`sum(${sql.ref(f)}) over (partition by fleet_id, object_type, object_id order by day) as ${sql.ref(`r_${f}`)}`,
  );
  await sql`update cost_days set ${sql.join(sets)}
    from (select fleet_id as f, object_type as t, object_id as o, day as d, ${sql.join(sums)}
          from cost_days) as w
    where cost_days.fleet_id = w.f and cost_days.object_type = w.t and cost_days.object_id = w.o
      and cost_days.day = w.d`.execute(db);
}
