import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { migrations } from '../db/migrations/index.js';
import {
  checkFleetkeepDatabase,
  fileStamp,
  lockExclusively,
  onlineBackup,
  removeSidecars,
} from '../db/sqlite-backup.js';

/**
 * `npm run restore -- <file>`: puts a backup of `npm run backup` (or a pre-migration
 * copy) back as the SQLite database of DATA_DIR, with the server stopped. It checks that the file is an
 * intact Fleetkeep database of this or an older version (an older one is migrated at the next start),
 * refuses while any process has the database open, keeps the current database in DATA_DIR/backups, and
 * removes the stale -wal/-shm files. Exit codes: 0 restored, 1 failed or bad file, 2 not applicable
 * (PostgreSQL), 3 the database is in use.
 */

const USAGE = `Usage: npm run restore -- <file>

Replaces the SQLite database of DATA_DIR by <file> (a copy written by npm run backup).
Stop Fleetkeep first. The current database is kept in DATA_DIR/backups.`;

const EXIT_NOT_APPLICABLE = 2;
const EXIT_IN_USE = 3;

const PG_RESTORE_HINT = `Fleetkeep runs on PostgreSQL (DATABASE_URL is set): restore a pg_dump archive with pg_restore,
with every Fleetkeep instance stopped, e.g.
  pg_restore --clean --if-exists --no-owner --dbname "$DATABASE_URL" fleetkeep-<stamp>.dump`;

class CliError extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

async function run(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new CliError(USAGE);
  const config = loadConfig();
  if (config.databaseUrl) throw new CliError(PG_RESTORE_HINT, EXIT_NOT_APPLICABLE);

  const source = path.resolve(positionals[0]!);
  const target = path.join(config.dataDir, 'fleetkeep.sqlite');
  if (!fs.existsSync(source)) throw new CliError(`${source} does not exist.`);
  if (source === path.resolve(target)) throw new CliError(`${source} is the database itself.`);
  const known = Object.keys(await migrations('sqlite').getMigrations());
  let restored: string[];
  try {
    restored = checkFleetkeepDatabase(source, known).migrations;
  } catch (err) {
    throw new CliError(`Not restored: ${(err as Error).message}`);
  }

  fs.mkdirSync(config.dataDir, { recursive: true });
  const exists = fs.existsSync(target);
  let held: ReturnType<typeof lockExclusively>;
  /** The current file is no readable database (the reason to restore): it is kept as it is. */
  let damaged = false;
  try {
    held = exists ? lockExclusively(target) : undefined;
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    // A corrupt database may still be open in a running server (the lock test cannot tell): the operator
    // stops it and moves the file away. A file that is no database at all cannot be served.
    if (code.startsWith('SQLITE_CORRUPT')) {
      throw new CliError(
        `Not restored: ${target} is damaged. Stop Fleetkeep, move the file (and its -wal, -shm) away, then run the restore again.`,
      );
    }
    if (!code.startsWith('SQLITE_NOTADB')) throw err;
    held = undefined;
    damaged = true;
  }
  if (exists && !held && !damaged) {
    throw new CliError(
      `Not restored: ${target} is in use. Stop Fleetkeep (and any backup running) first, then run the restore again.`,
      EXIT_IN_USE,
    );
  }
  const kept = exists
    ? path.join(config.dataDir, 'backups', `fleetkeep-pre-restore-${fileStamp()}.sqlite`)
    : undefined;
  const incoming = `${target}.restoring`;
  try {
    if (kept) fs.mkdirSync(path.dirname(kept), { recursive: true });
    if (held && kept) {
      // The current database, kept before it is replaced (through the lock this process holds).
      await onlineBackup(held, kept);
      // Checkpoints and removes its WAL while still holding the lock: nothing of it outlives the swap.
      held.pragma('journal_mode = DELETE');
    } else if (damaged && kept) {
      // SQLite cannot read it, so no backup API: the bytes as they are, for whoever wants to look.
      fs.copyFileSync(target, kept);
    }
    await onlineBackup(source, incoming);
    fs.renameSync(incoming, target);
    removeSidecars(target);
  } finally {
    fs.rmSync(incoming, { force: true });
    held?.close();
  }
  checkFleetkeepDatabase(target, known);
  console.log(`Restored ${source} to ${target} (migration ${restored.at(-1)}).`);
  if (kept) console.log(`The database it replaced is kept at ${kept}.`);
  const pending = known.filter((m) => !restored.includes(m));
  if (pending.length > 0)
    console.log(`Fleetkeep applies ${pending.length} pending migration(s) at its next start.`);
  return 0;
}

run().then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof CliError) {
      console.error(err.message);
      process.exit(err.code);
    }
    console.error('Restore failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
