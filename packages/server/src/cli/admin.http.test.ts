import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase, startTestServer, TEST_DB } from '../test/harness.js';

/** The compiled command line of `npm run admin` (headless installs). */
const ADMIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/admin.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe(`npm run admin on ${TEST_DB}`, () => {
  let dataDir: string;
  let pgDb: { url: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    if (!fs.existsSync(ADMIN)) throw new Error(`${ADMIN} is missing: run "npm run build:ts" first`);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-admin-'));
    pgDb = TEST_DB === 'postgres' ? await createPgDatabase() : undefined;
  });
  afterAll(async () => {
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs the CLI on the fresh database, with `stdin` piped in when given. */
  function admin(args: string[], stdin?: string): Promise<Run> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    if (pgDb) env.DATABASE_URL = pgDb.url;
    else delete env.DATABASE_URL;
    const child = spawn(process.execPath, [ADMIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
    child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
    child.stdin.end(stdin ?? '');
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  }

  /** A server on the same database: logs in with the password and returns the auth reply, or the status. */
  async function loginOnServer(login: string, password: string) {
    const t = await startTestServer({ demo: false, config: { dataDir, databaseUrl: pgDb?.url } });
    try {
      const res = await t.anon.post('/api/login', { username: login, password });
      if (res.status !== 200) return { status: res.status, auth: undefined, needed: undefined };
      const auth = await t.anon.get(`/api/auth?access_token=${encodeURIComponent(res.body.access_token)}`);
      const needed = (await t.anon.get('/api/setup')).body.needed;
      return { status: res.status, auth: auth.body, needed };
    } finally {
      await t.close();
    }
  }

  it('creates the super user, refuses a second one, resets a password', async () => {
    const created = await admin(
      [
        'create-superuser',
        '--login',
        'ops',
        '--name',
        'Olga Ops',
        '--organisation',
        'Headless Ltd',
        '--password-stdin',
        '--distance',
        'miles',
        '--utc-offset=-05:00',
      ],
      'stdin-password-1\n',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Created super user "ops"');
    expect(created.stdout).not.toContain('stdin-password-1');

    const first = await loginOnServer('ops', 'stdin-password-1');
    expect(first.status).toBe(200);
    expect(first.needed).toBe(false);
    expect(first.auth).toMatchObject({ su: 1, user: { nm: 'Olga Ops' } });
    expect(first.auth.fleets).toHaveLength(1);
    expect(first.auth.fleets[0]).toMatchObject({ n: 'Headless Ltd', ms: 1, fm: 1, tz: 0xffff & -300 });

    const second = await admin([
      'create-superuser',
      '--login',
      'other',
      '--name',
      'Other',
      '--organisation',
      'Other',
      '--password',
      'other-password-1',
    ]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('Fleetkeep is already set up');

    const reset = await admin(['reset-password', 'OPS']);
    expect(reset.code, reset.stderr).toBe(0);
    const generated = /Password: (\S+)/.exec(reset.stdout)?.[1];
    expect(generated?.length).toBeGreaterThanOrEqual(10);
    expect((await loginOnServer('ops', 'stdin-password-1')).status).toBe(401);
    expect((await loginOnServer('ops', generated!)).status).toBe(200);
  });

  it('refuses a short password, an unknown login and an unknown command with exit code 1', async () => {
    const short = await admin(['reset-password', 'ops', '--password', 'short']);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 10 characters');
    const unknown = await admin(['reset-password', 'nobody', '--password', 'long-enough-1']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user with the login "nobody"');
    const bogus = await admin(['make-coffee']);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain('Unknown command');
  });
});
