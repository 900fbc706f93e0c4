import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The active services list reads the open services of a fleet (spec §4 "Active group"); a partial
 * index over them spares a scan of the archive, which holds most rows (bench/services.mjs).
 */
export function servicesOpenIndex006(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`create index services_open_fleet on services (fleet_id, id) where (f & 24) = 0`.execute(db);
    },
  };
}
