import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UNIT_TYPES } from '@fleetkeep/core';
import pg from 'pg';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

/*
 * Migrated, empty databases that every HTTP test server starts from. Each test file runs in its own
 * process and starts its own servers; running all the migrations on every fresh database was a large
 * part of a file's set-up. The templates are built once per machine and migration set (named by a hash
 * of the migrations' source), then copied: a PostgreSQL `CREATE DATABASE … TEMPLATE`, a SQLite file copy.
 * The server still runs migrateToLatest on the copy, which finds nothing pending.
 */

const DB_DIR = path.resolve(import.meta.dirname, '../db');

/** Hash of everything that decides the migrated schema and its reference rows. */
function schemaHash(): string {
  const hash = createHash('sha256');
  const visit = (dir: string) => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        hash.update(path.relative(DB_DIR, file)).update('\0').update(fs.readFileSync(file)).update('\0');
      }
    }
  };
  visit(path.join(DB_DIR, 'migrations'));
  visit(path.join(DB_DIR, 'dialect'));
  hash.update(fs.readFileSync(path.join(DB_DIR, 'migrate.ts')));
  hash.update(JSON.stringify(UNIT_TYPES));
  return hash.digest('hex').slice(0, 16);
}

let hashOnce: string | undefined;
const currentHash = () => (hashOnce ??= schemaHash());

/** Migrates a fresh database and closes it, so that nothing stays connected to the result. */
async function migrate(options: { databaseUrl?: string; sqliteFile?: string }): Promise<void> {
  const db = openDatabase(options);
  try {
    await migrateToLatest(db);
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// PostgreSQL

let pgTemplate: Promise<string> | undefined;

/**
 * Name of the migrated template database on the server of `adminUrl`, built on first use. Parallel
 * workers (and other checkouts) serialise on an advisory lock; the template appears under its final name
 * only once complete (built under a temporary name, then renamed).
 */
export function migratedPgTemplate(adminUrl: string): Promise<string> {
  pgTemplate ??= buildPgTemplate(adminUrl).catch((err) => {
    pgTemplate = undefined;
    throw err;
  });
  return pgTemplate;
}

async function buildPgTemplate(adminUrl: string): Promise<string> {
  const name = `fk_tpl_${currentHash()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = `fk_tplb_${randomBytes(6).toString('hex')}`;
      await admin.query(`create database ${building}`);
      try {
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        await migrate({ databaseUrl: url.toString() });
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch (err) {
        await admin.query(`drop database if exists ${building} with (force)`);
        throw err;
      }
    }
    await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
    return name;
  } finally {
    await admin.end();
  }
}

// ---------------------------------------------------------------------------------------------------
// SQLite

let sqliteTemplate: Promise<string> | undefined;

/** Path of the migrated template SQLite file (in the temporary directory), built on first use. */
export function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= buildSqliteTemplate().catch((err) => {
    sqliteTemplate = undefined;
    throw err;
  });
  return sqliteTemplate;
}

async function buildSqliteTemplate(): Promise<string> {
  const file = path.join(os.tmpdir(), `fleetkeep-test-template-${currentHash()}.sqlite`);
  if (fs.existsSync(file)) return file;
  // Built in a directory of its own and renamed into place: a reader never sees a half-written file.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-template-'));
  try {
    const building = path.join(dir, 'template.sqlite');
    await migrate({ sqliteFile: building });
    // Closing the last connection checkpointed the write-ahead log into the file.
    fs.renameSync(building, file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return file;
}
