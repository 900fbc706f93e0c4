import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * SQLite copies for `npm run backup` / `npm run restore` and the copy written before migrations.
 * The SQLite file is the whole state: attachments live in the database too (DESIGN §2).
 * Copies are made with SQLite's online backup API, never a file copy, so a server writing at the same
 * time leaves a consistent copy.
 */

/** Name of Kysely's table of applied migrations: a Fleetkeep database has it. */
export const MIGRATIONS_TABLE = 'kysely_migration';

/** Pre-migration copies kept beside a database; older ones are removed. */
export const PRE_MIGRATION_COPIES_KEPT = 3;

/** A UTC stamp for file names that sorts by time: 20260126T015100.123Z. */
export function fileStamp(date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '');
}

/**
 * Copies an open database (or the file at `source`) to `destination` with the online backup API. The
 * whole copy is done in one step, inside one read transaction: a writer in another process cannot make
 * it restart or mix two states (WAL readers never block writers).
 */
export async function onlineBackup(source: SQLite.Database | string, destination: string): Promise<void> {
  const db = typeof source === 'string' ? openExisting(source, { timeout: 5000 }) : source;
  const partial = `${destination}.partial`;
  fs.rmSync(partial, { force: true });
  try {
    await db.backup(partial, { progress: () => 0x7fffffff });
    // The copy is one self-contained file (no -wal/-shm beside it); the server switches it back to WAL.
    const copy = openExisting(partial);
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    // A copy that is not complete never carries the final name.
    fs.renameSync(partial, destination);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    if (typeof source === 'string') db.close();
  }
}

/** Opens an existing SQLite file (never creates one), waiting up to `timeout` ms for a lock. */
export function openExisting(
  file: string,
  options: { readonly?: boolean; timeout?: number } = {},
): SQLite.Database {
  return new SQLite(file, {
    fileMustExist: true,
    readonly: options.readonly ?? false,
    timeout: options.timeout ?? 5000,
  });
}

/** The first bytes of every SQLite database file. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** Bytes of the SQLite file header (https://sqlite.org/fileformat.html §1.3). */
const SQLITE_HEADER_BYTES = 100;

/**
 * What the SQLite file header says is wrong with `file` before SQLite opens it, or undefined: not an
 * SQLite file at all, or shorter than the page count its header declares (a copy cut short). The page
 * count is trusted only when its "version-valid-for" number matches the change counter, as SQLite does.
 */
export function headerProblem(file: string): string | undefined {
  const header = Buffer.alloc(SQLITE_HEADER_BYTES);
  const fd = fs.openSync(file, 'r');
  let read: number;
  try {
    read = fs.readSync(fd, header, 0, SQLITE_HEADER_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (read < SQLITE_HEADER_BYTES || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC))
    return 'is not an SQLite database (no SQLite file header).';
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = header.readUInt32BE(28);
  const valid = header.readUInt32BE(24) === header.readUInt32BE(92);
  const size = fs.statSync(file).size;
  if (valid && pages > 0 && pages * pageSize > size)
    return `is truncated: ${size} bytes where its header declares ${pages * pageSize}.`;
  return undefined;
}

export interface DatabaseCheck {
  /** Names of the migrations applied to it, in order. */
  migrations: string[];
}

/**
 * Checks that `file` is an intact Fleetkeep database: `PRAGMA integrity_check` answers ok and it has the
 * migrations table with at least one applied migration, all known to this version (`known`). Throws an
 * Error whose message an operator can act on.
 */
export function checkFleetkeepDatabase(file: string, known: readonly string[]): DatabaseCheck {
  const problem = headerProblem(file);
  if (problem) throw new Error(`${file} ${problem}`);
  let db: SQLite.Database;
  try {
    db = openExisting(file, { readonly: true, timeout: 5000 });
  } catch (err) {
    throw new Error(`${file} cannot be opened as an SQLite database: ${(err as Error).message}`);
  }
  try {
    let integrity: string[];
    try {
      integrity = (db.pragma('integrity_check') as Record<string, unknown>[]).map((r) =>
        String(Object.values(r)[0]),
      );
    } catch (err) {
      // SQLite reads a damaged page only when the check reaches it: damaged, not "no database".
      if ((err as { code?: string }).code?.startsWith('SQLITE_CORRUPT'))
        throw new Error(`${file} fails the integrity check: ${(err as Error).message}`);
      throw new Error(`${file} is not an SQLite database: ${(err as Error).message}`);
    }
    if (integrity.length !== 1 || integrity[0] !== 'ok') {
      throw new Error(`${file} fails the integrity check: ${integrity.slice(0, 5).join('; ')}`);
    }
    const table = db
      .prepare("select name from sqlite_master where type = 'table' and name = ?")
      .get(MIGRATIONS_TABLE);
    if (!table) throw new Error(`${file} is not a Fleetkeep database (it has no ${MIGRATIONS_TABLE} table).`);
    const migrations = (
      db.prepare(`select name from ${MIGRATIONS_TABLE} order by name`).all() as { name: string }[]
    ).map((r) => r.name);
    if (migrations.length === 0)
      throw new Error(`${file} is not a Fleetkeep database (no migration applied).`);
    const unknown = migrations.filter((m) => !known.includes(m));
    if (unknown.length > 0) {
      throw new Error(
        `${file} was written by a newer Fleetkeep (migrations ${unknown.join(', ')}); upgrade Fleetkeep first.`,
      );
    }
    return { migrations };
  } finally {
    db.close();
  }
}

/**
 * Takes the database for this process alone and returns the connection that holds it, or undefined when
 * another connection (a running server, a backup in progress) has it open. Every connection to a WAL
 * database holds a shared lock on the file for as long as it is open, so the exclusive lock is refused
 * until the last one closes; the operating system drops the locks of a killed process, so a crashed
 * server does not count. The lock lasts until the returned connection is closed.
 */
export function lockExclusively(file: string): SQLite.Database | undefined {
  const db = openExisting(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return db;
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return undefined;
    throw err;
  }
}

/** True when another connection has the database open (see `lockExclusively`). */
export function isInUse(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const held = lockExclusively(file);
  held?.close();
  return held === undefined;
}

/** Removes the -wal and -shm files of `file` (stale once the database itself is replaced). */
export function removeSidecars(file: string): void {
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
}

/** Pre-migration copies of `file`: `<file>.pre-<migration>-<stamp>.sqlite`. */
const PRE_MIGRATION = /\.pre-(.+)-(\d{8}T\d{6}(?:\.\d{3})?Z)\.sqlite$/;

export function preMigrationCopyName(file: string, migration: string, date = new Date()): string {
  return `${file}.pre-${migration}-${fileStamp(date)}.sqlite`;
}

/** The pre-migration copies of `file`, oldest first. */
export function preMigrationCopies(file: string): string[] {
  const dir = path.dirname(file);
  const base = path.basename(file);
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(`${base}.pre-`) && PRE_MIGRATION.test(name))
    .map((name) => ({ name, stamp: PRE_MIGRATION.exec(name)?.[2] ?? '' }))
    .sort((a, b) => a.stamp.localeCompare(b.stamp) || a.name.localeCompare(b.name))
    .map((c) => path.join(dir, c.name));
}

/**
 * Writes `<file>.pre-<migration>-<stamp>.sqlite` beside the database before `migration` (the first
 * pending one) is applied, and keeps the newest PRE_MIGRATION_COPIES_KEPT. Returns the copy's path.
 */
export async function writePreMigrationCopy(file: string, migration: string): Promise<string> {
  const copy = preMigrationCopyName(file, migration);
  await onlineBackup(file, copy);
  const copies = preMigrationCopies(file);
  for (const old of copies.slice(0, Math.max(0, copies.length - PRE_MIGRATION_COPIES_KEPT))) {
    fs.rmSync(old, { force: true });
  }
  return copy;
}
