import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Which units a statistics write changed (the dashboard's statistics call at
 * ≥ 100 req/s on 10,000 units while the data changes). Every write of `cost_days` bumps the fleet's
 * `statistics_versions` row (migration 012); this table names, per fleet and version reached, the units
 * whose figures that write moved. A cached fleet reply of version v then recomputes only the units
 * written in (v, current] instead of the whole fleet (modules/statistics/cache.ts, `unit-changes.ts`).
 *
 * Only recent versions are kept: the writer drops older ones now and then and moves
 * `statistics_versions.changes_from` (the lowest version whose changes are all kept) past them; a reply
 * older than that is computed again in full. Rows are the key alone, clustered on (fleet, version) on
 * SQLite.
 */
export function statisticsFleetDays018(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('statistics_unit_changes')
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('unit_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('statistics_unit_changes_pk', ['fleet_id', 'version', 'unit_id'])
        .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
        .execute();
      // The lowest version whose changed units are all still in the table (0: every one so far).
      await db.schema
        .alterTable('statistics_versions')
        .addColumn('changes_from', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
