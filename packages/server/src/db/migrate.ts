import { UNIT_TYPES } from '@fleetkeep/core';
import { Migrator } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

/** Runs the pending migrations, then makes sure the reference data exists. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider: migrations(db.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  await seedUnitTypes(db);
}

async function seedUnitTypes(db: Db): Promise<void> {
  const existing = new Set(
    (await db.kysely.selectFrom('unit_types').select('name').execute()).map((r) => r.name),
  );
  const missing = UNIT_TYPES.filter((n) => !existing.has(n));
  if (missing.length > 0) {
    // Instances starting together on one PostgreSQL both get here; the second inserts nothing.
    await db.kysely
      .insertInto('unit_types')
      .values(missing.map((name) => ({ name })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
}
