import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { migrations } from '../db/migrations/index.js';
import { checkFleetkeepDatabase, fileStamp, onlineBackup } from '../db/sqlite-backup.js';

/**
 * `npm run backup [-- <file>]`: a consistent copy of the SQLite database, attachments
 * included (they are rows of it), written with SQLite's online backup API while the server runs. By
 * default to `DATA_DIR/backups/fleetkeep-<UTC stamp>.sqlite`. PostgreSQL is backed up with pg_dump; this
 * command refuses it and prints the command. Exit codes: 0 written, 1 failed, 2 not applicable.
 */

const USAGE = `Usage: npm run backup [-- <file>]

Writes a consistent copy of the SQLite database of DATA_DIR while the server runs
(default: DATA_DIR/backups/fleetkeep-<UTC stamp>.sqlite). Restore it with the server
stopped: npm run restore -- <file>`;

/** Exit code when the command does not apply (PostgreSQL, no database). */
const EXIT_NOT_APPLICABLE = 2;

/** The pg_dump and pg_restore commands for a PostgreSQL installation (never with the password). */
const PG_DUMP_HINT = `Fleetkeep runs on PostgreSQL (DATABASE_URL is set): back it up with pg_dump, e.g.
  pg_dump --format=custom --file "fleetkeep-$(date -u +%Y%m%dT%H%M%SZ).dump" "$DATABASE_URL"
and restore it, with every Fleetkeep instance stopped, with
  pg_restore --clean --if-exists --no-owner --dbname "$DATABASE_URL" fleetkeep-<stamp>.dump`;

async function run(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    console.error(USAGE);
    return 1;
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error(PG_DUMP_HINT);
    return EXIT_NOT_APPLICABLE;
  }
  const source = path.join(config.dataDir, 'fleetkeep.sqlite');
  if (!fs.existsSync(source)) {
    console.error(`There is no database at ${source} (DATA_DIR=${config.dataDir}).`);
    return EXIT_NOT_APPLICABLE;
  }
  const target = path.resolve(
    positionals[0] ??
      path.join(config.dataDir, 'backups', `fleetkeep-${fileStamp().replace(/\.\d+Z$/, 'Z')}.sqlite`),
  );
  if (fs.existsSync(target)) {
    console.error(`${target} exists already; give another file name.`);
    return 1;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const started = performance.now();
  await onlineBackup(source, target);
  const known = Object.keys(await migrations('sqlite').getMigrations());
  const { migrations: applied } = checkFleetkeepDatabase(target, known);
  const size = fs.statSync(target).size;
  const ms = Math.round(performance.now() - started);
  console.log(
    `Backed up ${source} to ${target} (${(size / 1048576).toFixed(1)} MiB, migration ${applied.at(-1)}, ${ms} ms).`,
  );
  console.log(`Restore it with the server stopped: npm run restore -- ${target}`);
  return 0;
}

run().then(
  (code) => process.exit(code),
  (err) => {
    console.error('Backup failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
