import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
async function run(): Promise<void> {
  const config = loadConfig();
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'fleetkeep.sqlite'),
  });
  try {
    await migrateToLatest(db);
    console.log(`Migrated ${db.ops.title} database to the latest version.`);
  } finally {
    await db.close();
  }
}

run().catch((err) => {
  console.error('Migration failed:', err);
  process.exit(1);
});
