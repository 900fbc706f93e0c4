import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The workshop rights beyond spec §6 (core constants.ts `Acl`, docs/product.md "Workshop rights"):
 * existing members get what core `withWorkshopRights` gives, so that nobody loses work they could do
 * before. Who views services (64) reports issues (1024), views work orders (4096) and submits
 * inspections (16384); who manages services (128) also manages issues (2048), work orders (8192),
 * inspections (32768) and assignments (65536) and adds fuel fillings (131072). The numbers are written
 * out: a migration keeps the meaning it had when it ran.
 */
export function workshopRights033(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`update fleet_users set acl = acl | 21504 where (acl & 64) <> 0`.execute(db);
      await sql`update fleet_users set acl = acl | 239616 where (acl & 128) <> 0`.execute(db);
    },
  };
}
