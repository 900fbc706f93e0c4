// `npm run test:soak`, first step after the build (the soak suite runs from a fresh clone):
// checks what the long parts need of the machine and says what is missing, in one list, before any part
// runs for minutes and then fails on it. It also creates the database of TEST_DATABASE_URL when
// PostgreSQL runs but that database does not exist yet (a fresh machine: `npm test` creates it the same
// way), since the test harness connects to it to make each test's own database.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** Debian's PostgreSQL 15, for the private cluster of pg-restart.soak.ts (private-postgres.ts). */
const PG_BIN = '/usr/lib/postgresql/15/bin';

const missing = [];

if (process.getuid?.() !== 0)
  missing.push(
    'root: the full-disk part mounts a tmpfs and the PostgreSQL-restart part runs a cluster as the postgres user',
  );
for (const tool of ['initdb', 'pg_ctl'])
  if (!fs.existsSync(path.join(PG_BIN, tool)))
    missing.push(
      `${PG_BIN}/${tool}: install Debian's postgresql-15 (the restart part runs a private cluster)`,
    );
for (const [tool, args] of [
  ['runuser', ['--version']],
  ['mount', ['--version']],
  ['id', ['postgres']],
]) {
  try {
    execFileSync(tool, args, { stdio: 'ignore' });
  } catch {
    missing.push(
      tool === 'id'
        ? 'the postgres system user (comes with postgresql-15)'
        : `the ${tool} command (util-linux)`,
    );
  }
}
if (!fs.existsSync(path.join(ROOT, 'packages/server/dist/main.js')))
  missing.push('packages/server/dist/main.js: run "npm run build:ts" first');

/** Connects to TEST_DATABASE_URL; creates its database when only that is missing (error 3D000). */
async function database() {
  const connect = async (url) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    await client.connect();
    return client;
  };
  try {
    await (await connect(TEST_DATABASE_URL)).end();
  } catch (err) {
    if (err?.code !== '3D000') {
      const where = new URL(TEST_DATABASE_URL);
      missing.push(`PostgreSQL at ${where.host}${where.pathname} (TEST_DATABASE_URL): ${err.message}`);
      return;
    }
    const admin = new URL(TEST_DATABASE_URL);
    const name = decodeURIComponent(admin.pathname.slice(1));
    admin.pathname = '/postgres';
    const client = await connect(admin.toString());
    try {
      await client.query(`create database "${name.replaceAll('"', '""')}"`);
      console.log(`soak preflight: created database ${name}`);
    } finally {
      await client.end();
    }
  }
}
await database();

if (missing.length > 0) {
  console.error(`npm run test:soak cannot run here; missing:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
  process.exit(1);
}
console.log('soak preflight: root, PostgreSQL 15 binaries, the test database and the build are there');
