import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { migrations } from '../db/migrations/index.js';
import { PRE_MIGRATION_COPIES_KEPT, preMigrationCopies } from '../db/sqlite-backup.js';
import { attachmentsTester } from '../test/attachments.js';
import { createPgDatabase, startTestServer, TEST_DB, type TestServer } from '../test/harness.js';
import { servicesFixture } from '../test/services-fixtures.js';

/**
 * `npm run backup` / `npm run restore` and the copy before migrations: the compiled
 * command lines (`npm run build:ts` first) against a server that is running, on its own DATA_DIR.
 */
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli');
const BACKUP = path.join(DIST, 'backup.js');
const RESTORE = path.join(DIST, 'restore.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(script: string, args: string[], env: { DATA_DIR: string; DATABASE_URL?: string }): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, [script, ...args], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
  child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const tmpDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

beforeAll(() => {
  for (const f of [BACKUP, RESTORE]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: run "npm run build:ts" first`);
  }
});

// One database per run of the suite (npm test runs both): each part runs where it applies, none is skipped.
if (TEST_DB === 'sqlite')
  describe('npm run backup / restore on SQLite', () => {
    let dataDir: string;
    let t: TestServer | undefined;

    beforeAll(() => {
      dataDir = tmpDir('fleetkeep-backup-');
    });
    afterAll(async () => {
      await t?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('round-trips a running server: backup while it serves, restore refused while it runs, then restored', async () => {
      t = await startTestServer({ config: { dataDir } });
      const fx = await servicesFixture(t);
      const files = attachmentsTester(t, fx.base, 'service');
      const manager = await t.login('manager');
      const uid = await fx.unit();
      const kept = await manager.post(fx.base, { n: 'Kept by the backup', t: 'u', uid, f: 1 });
      expect(kept.status, JSON.stringify(kept.body)).toBe(200);
      const pdf = new Uint8Array(4096).map((_, i) => (i * 7) % 256);
      const up = await files.upload(manager, kept.body.id, [
        { name: 'invoice.pdf', type: 'application/pdf', data: pdf },
      ]);
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const attachmentId = up.body.attachments[0].id as number;

      // Writes go on while the backup runs: the copy is one consistent state, whatever it holds of them.
      let writing = true;
      const writer = (async () => {
        let n = 0;
        while (writing) await manager.post(fx.base, { n: `During backup ${++n}`, t: 'u', uid, f: 1 });
        return n;
      })();
      const target = path.join(dataDir, 'copies', 'one.sqlite');
      const backup = await cli(BACKUP, [target], { DATA_DIR: dataDir });
      writing = false;
      expect(await writer).toBeGreaterThan(0);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain(`Backed up ${path.join(dataDir, 'fleetkeep.sqlite')} to ${target}`);
      expect(fs.existsSync(target)).toBe(true);
      // One self-contained file: nothing beside it, nothing half-written left.
      expect(fs.readdirSync(path.dirname(target))).toEqual(['one.sqlite']);
      const copy = new SQLite(target, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const inCopy = copy
        .prepare("select count(*) as n from services where name like 'During backup %'")
        .get() as {
        n: number;
      };
      copy.close();

      // Without a path it writes DATA_DIR/backups/fleetkeep-<stamp>.sqlite; a second run refuses to overwrite.
      const dated = await cli(BACKUP, [], { DATA_DIR: dataDir });
      expect(dated.code, dated.stderr).toBe(0);
      expect(fs.readdirSync(path.join(dataDir, 'backups'))).toEqual([
        expect.stringMatching(/^fleetkeep-\d{8}T\d{6}Z\.sqlite$/),
      ]);
      expect((await cli(BACKUP, [target], { DATA_DIR: dataDir })).code).toBe(1);

      // The server runs: restore refuses and changes nothing.
      const refused = await cli(RESTORE, [target], { DATA_DIR: dataDir });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('is in use. Stop Fleetkeep');
      expect((await manager.get(files.url(kept.body.id))).body.attachments).toHaveLength(1);

      // After the backup: the attachment is deleted and another service written; then the server stops.
      const after = await manager.post(fx.base, { n: 'Written after the backup', t: 'u', uid, f: 1 });
      expect(after.status).toBe(200);
      expect((await manager.delete(`${files.url(kept.body.id)}/${attachmentId}`)).status).toBe(200);
      expect((await manager.get(files.url(kept.body.id))).body.attachments).toEqual([]);
      await t.close();
      t = undefined;

      const restored = await cli(RESTORE, [target], { DATA_DIR: dataDir });
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(`Restored ${target}`);
      expect(fs.existsSync(path.join(dataDir, 'fleetkeep.sqlite-wal'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'fleetkeep.sqlite-shm'))).toBe(false);
      // The database it replaced is kept.
      const previous = fs.readdirSync(path.join(dataDir, 'backups')).filter((f) => f.includes('pre-restore'));
      expect(previous).toHaveLength(1);

      t = await startTestServer({ demo: false, config: { dataDir } });
      const again = await t.login('manager');
      const list = (await again.get(fx.base)).body.services as { id: number; n: string }[];
      expect(list.some((s) => s.id === kept.body.id && s.n === 'Kept by the backup')).toBe(true);
      expect(list.some((s) => s.n === 'Written after the backup')).toBe(false);
      expect(list.filter((s) => s.n.startsWith('During backup ')).length).toBe(inCopy.n);
      const file = await fetch(`${t.url}${files.url(kept.body.id)}/${attachmentId}`, {
        headers: { authorization: `SSID ${again.ssid}` },
      });
      expect(file.status).toBe(200);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(pdf);
    });

    it('restore refuses a file that is not a Fleetkeep database, and replaces a damaged database with a good one', async () => {
      const dir = tmpDir('fleetkeep-restore-bad-');
      try {
        const db = path.join(dir, 'fleetkeep.sqlite');
        fs.writeFileSync(db, 'unchanged');
        const text = path.join(dir, 'notes.txt');
        fs.writeFileSync(text, 'not a database at all, but long enough to look like one? no.');
        const plain = path.join(dir, 'plain.sqlite');
        const other = new SQLite(plain);
        other.exec('create table t (x integer)');
        other.close();
        for (const [file, message] of [
          [text, 'is not an SQLite database'],
          [plain, 'is not a Fleetkeep database'],
          [path.join(dir, 'missing.sqlite'), 'does not exist'],
        ] as const) {
          const run = await cli(RESTORE, [file], { DATA_DIR: dir });
          expect(run.code, run.stderr).toBe(1);
          expect(run.stderr).toContain(message);
        }
        expect(fs.readFileSync(db, 'utf8')).toBe('unchanged');
        expect(fs.existsSync(path.join(dir, 'backups'))).toBe(false);

        // A good copy replaces a damaged database (the reason to restore); the damaged file is kept as it was.
        const good = path.join(dir, 'good', 'fleetkeep.sqlite');
        const fresh = openDatabase({ sqliteFile: good });
        await migrateToLatest(fresh);
        await fresh.close();
        const run = await cli(RESTORE, [good], { DATA_DIR: dir });
        expect(run.code, run.stderr).toBe(0);
        const restored = new SQLite(db, { readonly: true });
        expect(restored.pragma('integrity_check', { simple: true })).toBe('ok');
        restored.close();
        const kept = fs.readdirSync(path.join(dir, 'backups'));
        expect(kept).toEqual([expect.stringMatching(/^fleetkeep-pre-restore-.*\.sqlite$/)]);
        expect(fs.readFileSync(path.join(dir, 'backups', kept[0]!), 'utf8')).toBe('unchanged');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('copies an existing database before migrating it and keeps the newest three copies', async () => {
      const dir = tmpDir('fleetkeep-premigration-');
      const file = path.join(dir, 'fleetkeep.sqlite');
      const names = Object.keys(await migrations('sqlite').getMigrations());
      const last = names.at(-1)!;
      const previous = names.at(-2)!;
      /** A database at migration N-1, with one row to recognise it by. */
      const olderDatabase = async (marker: string) => {
        for (const f of fs.readdirSync(dir).filter((f) => !f.includes('.pre-'))) fs.rmSync(path.join(dir, f));
        const db = openDatabase({ sqliteFile: file });
        const migrator = new Migrator({ db: db.kysely, provider: migrations('sqlite') });
        const result = await migrator.migrateTo(previous);
        expect(result.error).toBeUndefined();
        await db.kysely
          .insertInto('accounts')
          .values({ name: marker, parent_id: null, active: 1, created_at: 0 })
          .execute();
        await db.close();
      };
      const migrate = async () => {
        const db = openDatabase({ sqliteFile: file });
        const copies: string[] = [];
        await migrateToLatest(db, { onCopy: (c) => copies.push(c) });
        await db.close();
        return copies;
      };
      try {
        // A new database gets no copy: there is nothing to keep.
        expect(await migrate()).toEqual([]);
        // Nor does one that is up to date.
        expect(await migrate()).toEqual([]);

        const made: string[] = [];
        for (const marker of ['first', 'second', 'third', 'fourth']) {
          await olderDatabase(marker);
          const copies = await migrate();
          expect(copies).toHaveLength(1);
          expect(path.basename(copies[0]!)).toMatch(
            new RegExp(`^fleetkeep\\.sqlite\\.pre-${last}-\\d{8}T\\d{6}\\.\\d{3}Z\\.sqlite$`),
          );
          made.push(copies[0]!);
          // The copy is the database as it was: at N-1, with its rows.
          const copy = new SQLite(copies[0]!, { readonly: true });
          const applied = (copy.prepare('select name from kysely_migration').all() as { name: string }[]).map(
            (r) => r.name,
          );
          expect(applied).toContain(previous);
          expect(applied).not.toContain(last);
          expect(copy.prepare('select name from accounts').all()).toEqual([{ name: marker }]);
          copy.close();
        }
        expect(PRE_MIGRATION_COPIES_KEPT).toBe(3);
        expect(preMigrationCopies(file)).toEqual(made.slice(1));
        expect(fs.existsSync(made[0]!)).toBe(false);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
else
  describe('npm run backup / restore on PostgreSQL', () => {
    let pgDb: { url: string; drop(): Promise<void> };
    let dataDir: string;
    beforeAll(async () => {
      pgDb = await createPgDatabase();
      dataDir = tmpDir('fleetkeep-backup-pg-');
    });
    afterAll(async () => {
      await pgDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('refuses with exit code 2 and names pg_dump / pg_restore, never printing the connection string', async () => {
      const env = { DATA_DIR: dataDir, DATABASE_URL: pgDb.url };
      const backup = await cli(BACKUP, [], env);
      expect(backup.code).toBe(2);
      expect(backup.stderr).toContain('pg_dump --format=custom');
      expect(backup.stderr).toContain('"$DATABASE_URL"');
      expect(backup.stderr + backup.stdout).not.toContain(pgDb.url);
      const restore = await cli(RESTORE, [path.join(dataDir, 'x.dump')], env);
      expect(restore.code).toBe(2);
      expect(restore.stderr).toContain('pg_restore');
      expect(fs.readdirSync(dataDir)).toEqual([]);
    });
  });
