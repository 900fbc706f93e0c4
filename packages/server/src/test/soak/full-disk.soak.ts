import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../harness.js';
import {
  assertBuilt,
  BROKEN,
  builtCli,
  type Instance,
  inspect,
  type Outcome,
  signIn,
  startInstance,
  TIMED_OUT,
  timed,
} from './instance.js';

/**
 * A full disk on DATA_DIR (SQLite): DATA_DIR is a small tmpfs, nearly filled by a
 * ballast file, then filled by attachments (they live in the database, DESIGN §2), services with line
 * items and readings until writes fail. Every request is counted. While the disk is full every write
 * answers 507 `{error: 11, reason: "The server's disk is full"}` (core errors, not an unexpected fault),
 * reads and sign-ins of existing sessions go on, `npm run backup` fails with a clear message and leaves
 * no file, and `PRAGMA integrity_check` is ok. Nothing is half written: every acknowledged write is
 * there whole (both files of an upload, every line item of a service, the reading), nothing of a refused
 * one. Once the ballast is removed the same process writes again, the backup succeeds, and a restart on
 * the same data works. Mounting needs root: without it the test fails and says so (never skipped).
 */

const TMPFS_SIZE_MB = 96;
/** Space left free by the ballast, filled by the writes. */
const LEFT_FREE_MB = 12;
/** Two files per upload request: an upload is stored whole or not at all. */
const FILE_BYTES = 512 * 1024;
/** Uploads per service (core SERVICE_ATTACHMENTS_MAX is 20 files). */
const UPLOADS_PER_SERVICE = 8;
const MAX_ROUNDS = 200;
/** Refused uploads in a row that say the disk is full. */
const FULL_AFTER = 3;
/** Rounds of every kind of request while the disk is full. */
const ROUNDS_WHILE_FULL = 10;
const REQUEST_TIMEOUT_MS = 30_000;
const LINES = [
  { n: 'Engine oil', t: 2, q: 8, c: 12.5 },
  { n: 'Labour', t: 1, q: 1.5, c: 60 },
] as const;
const DISK_FULL = { error: 11, reason: "The server's disk is full" };

type Kind = 'upload' | 'service' | 'reading' | 'sign-in' | 'read';

interface Ledger {
  attempts: Record<Kind, number>;
  ok: Record<Kind, number>;
  full: Record<Kind, number>;
  /** Anything but 200 or a 507 `{error: 11}`: a hang, a broken connection, another error. */
  bad: string[];
  uploads: { ok: string[]; refused: string[] };
  services: { ok: string[]; refused: string[] };
  readings: { ok: number[]; refused: number[] };
}

const perKind = (): Record<Kind, number> => ({ upload: 0, service: 0, reading: 0, 'sign-in': 0, read: 0 });

function count(ledger: Ledger, kind: Kind, what: string, o: Outcome): 'ok' | 'full' | 'bad' {
  ledger.attempts[kind]++;
  if (o.status === 200) {
    ledger.ok[kind]++;
    return 'ok';
  }
  if (o.status === 507 && JSON.stringify(o.body) === JSON.stringify(DISK_FULL) && kind !== 'read') {
    ledger.full[kind]++;
    return 'full';
  }
  const why =
    o.status === TIMED_OUT ? 'no answer in time' : o.status === BROKEN ? `broken: ${o.error}` : o.status;
  ledger.bad.push(`${what}: ${why} ${JSON.stringify(o.body)?.slice(0, 200)}`);
  return 'bad';
}

async function upload(url: string, ssid: string, names: string[]): Promise<Outcome> {
  const form = new FormData();
  for (const name of names)
    form.append('file', new Blob([crypto.randomBytes(FILE_BYTES)], { type: 'application/pdf' }), name);
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `SSID ${ssid}` },
      body: form,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, ms: performance.now() - started, body };
  } catch (err) {
    const timeout = (err as Error).name === 'TimeoutError';
    return { status: timeout ? TIMED_OUT : BROKEN, ms: 0, body: undefined, error: (err as Error).message };
  }
}

function integrity(file: string): string {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

/** `npm run backup` of the same build on DATA_DIR: exit code and output. */
function backup(dataDir: string): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const r = spawnSync(process.execPath, [builtCli('backup')], { env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** Files under DATA_DIR/backups (a failed backup must leave none, not even a partial one). */
function backupFiles(dataDir: string): string[] {
  const dir = path.join(dataDir, 'backups');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe('a full disk on DATA_DIR (SQLite)', () => {
  let dataDir = '';
  let mounted = false;
  let srv: Instance | undefined;

  beforeAll(() => {
    assertBuilt();
    if (process.getuid?.() !== 0)
      throw new Error(
        'The full-disk test mounts a tmpfs as DATA_DIR and needs root (mount -t tmpfs): run npm run test:soak as root.',
      );
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-fulldisk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE_MB}m`, 'tmpfs', dataDir]);
    mounted = true;
  });

  afterAll(async () => {
    try {
      await srv?.kill();
    } finally {
      if (mounted) execFileSync('umount', [dataDir]);
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers 507 error 11, writes nothing half, keeps reading and writes again when space returns', async () => {
    srv = await startInstance({ dataDir });
    const server = srv;
    const manager = await signIn(server.url, 'manager');
    const ssid = manager.ssid!;
    const fid = (await manager.get('/api/fleets')).body.fleets[0].id as number;
    const base = `${server.url}/api/fleets/${fid}/services`;
    const db = await inspect({ dataDir });
    const [unit] = await db.all<{
      id: number;
      device_id: string;
      last_time: number | null;
      lat: number;
      lon: number;
    }>(
      `select id, device_id, last_time, lat, lon from units
         where fleet_id = ? and device_id is not null and lat is not null order by id limit 1`,
      [fid],
    );
    await db.close();
    const ledger: Ledger = {
      attempts: perKind(),
      ok: perKind(),
      full: perKind(),
      bad: [],
      uploads: { ok: [], refused: [] },
      services: { ok: [], refused: [] },
      readings: { ok: [], refused: [] },
    };
    let next = Math.max(Math.floor(Date.now() / 1000) - 3600, Number(unit!.last_time ?? 0) + 1);
    let serial = 0;

    const newService = async (): Promise<number | undefined> => {
      const name = `Full disk #${serial++}`;
      const body = { n: name, t: 'u', uid: unit!.id, f: 1, li: LINES };
      const o = await timed('POST', base, { ssid, body, timeoutMs: REQUEST_TIMEOUT_MS });
      const r = count(ledger, 'service', name, o);
      if (r === 'ok') ledger.services.ok.push(name);
      else ledger.services.refused.push(name);
      return r === 'ok' ? (o.body as { id: number }).id : undefined;
    };
    const uploadTo = async (serviceId: number) => {
      const tag = `u${serial++}`;
      const o = await upload(`${base}/${serviceId}/attachments`, ssid, [`${tag}-a.pdf`, `${tag}-b.pdf`]);
      const r = count(ledger, 'upload', tag, o);
      (r === 'ok' ? ledger.uploads.ok : ledger.uploads.refused).push(tag);
      return r;
    };
    const reading = async () => {
      const tm = next++;
      // Where the unit stands: a reading that moves nothing, so that no rule refuses it.
      const query = new URLSearchParams({
        id: unit!.device_id,
        timestamp: String(tm),
        lat: String(unit!.lat),
        lon: String(unit!.lon),
      });
      const o = await timed('GET', `${server.osmandUrl}/?${query}`, { timeoutMs: REQUEST_TIMEOUT_MS });
      const accepted = o.status === 200 && (o.body as { ok?: boolean }).ok === true;
      const r = count(
        ledger,
        'reading',
        `reading ${tm}`,
        accepted || o.status !== 200 ? o : { ...o, status: 0 },
      );
      (r === 'ok' ? ledger.readings.ok : ledger.readings.refused).push(tm);
    };
    const reads = async () => {
      for (const url of [base, `${base}/${owner}`, `${server.url}/api/fleets/${fid}/units`])
        count(ledger, 'read', `GET ${url}`, await timed('GET', url, { ssid, timeoutMs: REQUEST_TIMEOUT_MS }));
      count(
        ledger,
        'read',
        'ping',
        await timed('GET', `${server.url}/api/ping`, { timeoutMs: REQUEST_TIMEOUT_MS }),
      );
    };
    const newSignIn = async () => {
      const o = await timed('POST', `${server.url}/api/login`, {
        body: { username: 'mechanic', password: DEMO_PASSWORD },
        timeoutMs: REQUEST_TIMEOUT_MS,
      });
      count(ledger, 'sign-in', 'login', o);
    };

    // Ballast: the disk is nearly full before the first write.
    const ballast = path.join(dataDir, 'ballast');
    const { bavail, bsize } = fs.statfsSync(dataDir);
    fs.writeFileSync(ballast, Buffer.alloc(Math.max(0, bavail * bsize - LEFT_FREE_MB * 1024 * 1024), 1));

    // Filling: uploads, services and readings until uploads keep saying the disk is full.
    let owner = await newService();
    let onOwner = 0;
    let fullInARow = 0;
    for (let round = 0; round < MAX_ROUNDS && fullInARow < FULL_AFTER && ledger.bad.length === 0; round++) {
      if (owner === undefined || onOwner === UPLOADS_PER_SERVICE) {
        const made = await newService();
        if (made !== undefined) [owner, onOwner] = [made, 0];
      }
      if (owner === undefined) continue;
      const r = await uploadTo(owner);
      if (r === 'ok') onOwner++;
      fullInARow = r === 'full' ? fullInARow + 1 : 0;
      await reading();
    }
    expect(ledger.bad, 'while filling').toEqual([]);
    expect(fullInARow, 'the disk never filled').toBe(FULL_AFTER);
    const filling = { attempts: { ...ledger.attempts }, ok: { ...ledger.ok }, full: { ...ledger.full } };

    // Full: every kind of request, each answered 200 or 507 {error: 11}; reads always 200.
    for (let round = 0; round < ROUNDS_WHILE_FULL; round++) {
      await uploadTo(owner!);
      await newService();
      await reading();
      await newSignIn();
      await reads();
    }
    const dbFile = path.join(dataDir, 'fleetkeep.sqlite');
    const integrityFull = integrity(dbFile);
    const backupFull = backup(dataDir);
    const backupFilesFull = backupFiles(dataDir);
    const fullAttempts = { ...ledger.attempts };
    const fullDisk = { ...ledger.full };

    // Space returns: the same process writes again, and a backup succeeds.
    fs.rmSync(ballast);
    const after = { attempts: 0, ok: 0 };
    for (const step of [
      () => uploadTo(owner!),
      () => newService(),
      () => reading(),
      () => newSignIn(),
    ] as const) {
      const okBefore = Object.values(ledger.ok).reduce((a, b) => a + b, 0);
      await step();
      after.attempts++;
      if (Object.values(ledger.ok).reduce((a, b) => a + b, 0) > okBefore) after.ok++;
    }
    const backupAfter = backup(dataDir);

    // Nothing half written: the database holds exactly the acknowledged writes, each whole.
    const check = await inspect({ dataDir });
    const files = await check.all<{ name: string; size: number; bytes: number }>(
      "select name, size, length(data) as bytes from attachments where name like 'u%.pdf'",
    );
    const services = await check.all<{ name: string; lines: number }>(
      `select s.name, (select count(*) from service_line_items l where l.service_id = s.id) as lines
         from services s where s.fleet_id = ? and s.name like 'Full disk #%'`,
      [fid],
    );
    const positions = await check.all<{ tm: number }>(
      'select tm from positions where unit_id = ? and tm >= ?',
      [unit!.id, ledger.readings.ok[0] ?? ledger.readings.refused[0] ?? 0],
    );
    await check.close();
    const storedUploads = new Set(files.map((f) => f.name.replace(/-[ab]\.pdf$/, '')));

    console.log(
      `full disk: ${JSON.stringify({
        filling,
        whileFull: {
          attempts: Object.fromEntries(
            Object.entries(fullAttempts).map(([k, v]) => [k, v - filling.attempts[k as Kind]]),
          ),
          full: Object.fromEntries(
            Object.entries(fullDisk).map(([k, v]) => [k, v - filling.full[k as Kind]]),
          ),
        },
        after,
        stored: {
          uploads: storedUploads.size,
          files: files.length,
          services: services.length,
          readings: positions.length,
        },
        integrityFull,
        backupFull: { status: backupFull.status, files: backupFilesFull },
        backupAfter: backupAfter.status,
      })}`,
    );

    expect(server.child.exitCode, server.output.join('').slice(-4000)).toBeNull();
    expect(ledger.bad).toEqual([]);
    // The disk was full for writes, never for reads.
    expect(ledger.full.upload).toBeGreaterThanOrEqual(FULL_AFTER + ROUNDS_WHILE_FULL);
    expect(ledger.full.read).toBe(0);
    expect(ledger.ok.read).toBe(ledger.attempts.read);
    expect(integrityFull).toBe('ok');
    expect(backupFull.status, backupFull.output).toBe(1);
    expect(backupFull.output).toMatch(/disk is full/);
    expect(backupFilesFull).toEqual([]);
    expect(after).toEqual({ attempts: 4, ok: 4 });
    expect(backupAfter.status, backupAfter.output).toBe(0);
    // Each acknowledged upload has both files, whole; no refused one left anything.
    expect([...storedUploads].sort()).toEqual([...ledger.uploads.ok].sort());
    expect(files.length).toBe(2 * ledger.uploads.ok.length);
    for (const f of files) expect(f.bytes, f.name).toBe(FILE_BYTES);
    for (const f of files) expect(f.size, f.name).toBe(FILE_BYTES);
    expect(services.map((s) => s.name).sort()).toEqual([...ledger.services.ok].sort());
    for (const s of services) expect(Number(s.lines), s.name).toBe(LINES.length);
    expect(positions.map((p) => Number(p.tm)).sort()).toEqual([...ledger.readings.ok].sort());

    // A restart on the same data: it starts, the last upload is listed, the file is intact.
    await server.stop();
    expect(server.child.exitCode).toBe(0);
    srv = await startInstance({ dataDir });
    const back = await signIn(srv.url, 'manager');
    const list = await back.get(`/api/fleets/${fid}/services/${owner}/attachments`);
    expect(list.status).toBe(200);
    const lastUpload = ledger.uploads.ok.at(-1)!;
    expect((list.body.attachments as { name: string }[]).map((a) => a.name)).toContain(`${lastUpload}-a.pdf`);
    await srv.stop();
    expect(integrity(dbFile)).toBe('ok');
  }, 600_000);
});
