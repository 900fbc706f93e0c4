import fs from 'node:fs';
import { UNIT_TYPES } from '@fleetkeep/core';
import { Migrator } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';
import { writePreMigrationCopy } from './sqlite-backup.js';

export interface MigrateOptions {
  /** Called with the path of the copy written before migrating an existing SQLite database. */
  onCopy?(file: string): void;
}

/**
 * Runs the pending migrations, then makes sure the reference data exists. An existing SQLite database
 * with pending migrations is first copied beside itself (`<db>.pre-<migration>-<stamp>.sqlite`, the
 * newest three kept): a failed or unwanted upgrade can be undone with `npm run restore`.
 */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider: migrations(db.dialect) });
  await copyBeforeMigrating(db, migrator, options);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  await seedUnitTypes(db);
}

/** The copy of an existing SQLite database (one with applied migrations) that has pending ones. */
async function copyBeforeMigrating(db: Db, migrator: Migrator, options: MigrateOptions): Promise<void> {
  // Db.label is the SQLite file (db/database.ts); ':memory:' databases have nothing to keep.
  const file = db.label;
  if (db.dialect !== 'sqlite' || file === ':memory:' || !fs.existsSync(file)) return;
  const list = await migrator.getMigrations();
  const applied = list.filter((m) => m.executedAt !== undefined);
  const pending = list.filter((m) => m.executedAt === undefined);
  if (applied.length === 0 || pending.length === 0) return;
  const copy = await writePreMigrationCopy(file, pending[0]!.name);
  options.onCopy?.(copy);
  console.log(`Copied the database to ${copy} before migration ${pending[0]!.name}.`);
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
