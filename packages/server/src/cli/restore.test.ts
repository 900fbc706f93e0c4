import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

/**
 * `npm run restore` refuses a corrupt file (brief H8 item 5): a copy cut short, a file
 * that is no SQLite database and one whose `PRAGMA integrity_check` fails each answer exit code 1 with a
 * message naming the fault, and the current database is left byte for byte as it was (no -wal or -shm
 * left beside it, no copy in DATA_DIR/backups). A good copy is then restored, so that each refusal is the
 * file's fault and not the command's. Runs the compiled command (`npm run build:ts` first).
 */
const RESTORE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/restore.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function restore(file: string, dataDir: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [RESTORE, file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
  child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** A migrated Fleetkeep database at `file` with one account named `marker`. */
async function fleetkeepDatabase(file: string, marker: string): Promise<void> {
  const db = openDatabase({ sqliteFile: file });
  await migrateToLatest(db);
  await db.kysely
    .insertInto('accounts')
    .values({ name: marker, parent_id: null, active: 1, created_at: 0 })
    .execute();
  await db.close();
}

/** Every file of DATA_DIR (recursively) with the SHA-256 of its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
  }
  return out;
}

/**
 * A copy of `good` whose index no longer matches its table: the index's definition is rewritten (the
 * schema is writable on purpose here), so every row is "missing from index" for the integrity check,
 * while the file itself opens and reads normally.
 */
function withBrokenIndex(good: string, target: string): void {
  fs.copyFileSync(good, target);
  const db = new SQLite(target);
  db.exec('create table soak_probe (a integer, b integer); create index soak_probe_a on soak_probe (a);');
  const insert = db.prepare('insert into soak_probe (a, b) values (?, ?)');
  for (let i = 0; i < 50; i++) insert.run(i, 1000 - i);
  const version = db.pragma('schema_version', { simple: true }) as number;
  db.unsafeMode(true);
  db.pragma('writable_schema = ON');
  db.prepare("update sqlite_schema set sql = ? where name = 'soak_probe_a'").run(
    'CREATE INDEX soak_probe_a ON soak_probe (b)',
  );
  db.pragma(`schema_version = ${version + 1}`);
  db.pragma('writable_schema = OFF');
  db.close();
}

describe('npm run restore refuses a corrupt file', () => {
  let dir: string;
  let dataDir: string;
  let good: string;

  beforeAll(async () => {
    if (!fs.existsSync(RESTORE)) throw new Error(`${RESTORE} is missing: run "npm run build:ts" first`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-restore-corrupt-'));
    dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    await fleetkeepDatabase(path.join(dataDir, 'fleetkeep.sqlite'), 'current');
    good = path.join(dir, 'good.sqlite');
    await fleetkeepDatabase(good, 'restored');
  }, 60_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses each bad file with a clear message and leaves the database byte-identical', async () => {
    const bytes = fs.readFileSync(good);
    const truncated = path.join(dir, 'truncated.sqlite');
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const notSqlite = path.join(dir, 'photo.sqlite');
    fs.writeFileSync(notSqlite, crypto.randomBytes(bytes.length));
    const broken = path.join(dir, 'broken-index.sqlite');
    withBrokenIndex(good, broken);
    // The broken copy opens and reads: only the integrity check tells.
    const probe = new SQLite(broken, { readonly: true });
    expect(probe.prepare('select count(*) as n from soak_probe').get()).toEqual({ n: 50 });
    probe.close();

    const before = snapshot(dataDir);
    expect(Object.keys(before)).toEqual(['fleetkeep.sqlite']);
    for (const [file, message] of [
      [truncated, 'is truncated'],
      [notSqlite, 'is not an SQLite database'],
      [broken, 'fails the integrity check'],
    ] as const) {
      const run = await restore(file, dataDir);
      expect(run.code, `${file}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toContain(`Not restored: ${file} ${message}`);
      expect(run.stdout).toBe('');
      expect(snapshot(dataDir)).toEqual(before);
    }

    // The same command with an intact copy restores it: the refusals above were the files' doing.
    const run = await restore(good, dataDir);
    expect(run.code, run.stderr).toBe(0);
    const db = new SQLite(path.join(dataDir, 'fleetkeep.sqlite'), { readonly: true });
    expect(db.prepare('select name from accounts').all()).toEqual([{ name: 'restored' }]);
    db.close();
  }, 60_000);
});
