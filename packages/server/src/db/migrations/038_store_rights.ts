import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The store rights beyond spec §6 (core constants.ts `Acl`, docs/product.md "Store rights"): existing
 * members get what core `withWorkshopRights` now gives. Who views services (64) views parts (262144),
 * documents (1048576) and components (4194304); who manages services (128) manages parts (524288) and
 * components (8388608); who manages intervals (4) and views services manages documents (2097152). The
 * numbers are written out: a migration keeps the meaning it had when it ran.
 */
export function storeRights038(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`update fleet_users set acl = acl | 5505024 where (acl & 64) <> 0`.execute(db);
      await sql`update fleet_users set acl = acl | 8912896 where (acl & 128) <> 0`.execute(db);
      await sql`update fleet_users set acl = acl | 2097152 where (acl & 4) <> 0 and (acl & 64) <> 0`.execute(
        db,
      );
    },
  };
}
