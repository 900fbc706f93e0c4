import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  BROKEN,
  type Instance,
  isErrorShape,
  type Outcome,
  signIn,
  startInstance,
  TIMED_OUT,
  timed,
} from './instance.js';

/**
 * A full disk on DATA_DIR (issue 14 item 4, SQLite): DATA_DIR is a small tmpfs, filled first with a
 * ballast file and then with attachments (they live in the database, DESIGN §2) until a write fails.
 * The failures must be clear error replies (`{error, reason}`, no broken connection, no hang) while reads
 * go on; the process stays up (no crash loop); `PRAGMA integrity_check` is ok; once the ballast is
 * removed writes succeed again, and a restart on the same data works. Mounting needs root: without it the
 * test fails and says so (it is never skipped).
 */

const TMPFS_SIZE_MB = 96;
/** Space left free by the ballast, filled by attachments. */
const LEFT_FREE_MB = 12;
const ATTACHMENT_BYTES = 1024 * 1024;
/** Attachments a service takes (core SERVICE_ATTACHMENTS_MAX is 20). */
const PER_SERVICE = 15;
const MAX_UPLOADS = 200;
const REQUEST_TIMEOUT_MS = 30_000;

async function upload(srv: Instance, ssid: string, url: string, name: string): Promise<Outcome> {
  const form = new FormData();
  form.append('file', new Blob([crypto.randomBytes(ATTACHMENT_BYTES)], { type: 'application/pdf' }), name);
  const started = performance.now();
  try {
    const res = await fetch(srv.url + url, {
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

  it('answers clear errors, keeps the database intact and writes again when space returns', async () => {
    srv = await startInstance({ dataDir });
    const server = srv;
    const manager = await signIn(server.url, 'manager');
    const ssid = manager.ssid!;
    const fid = (await manager.get('/api/fleets')).body.fleets[0].id as number;
    const base = `/api/fleets/${fid}/services`;
    const uid = ((await manager.get(`/api/fleets/${fid}/units`)).body.units as { id: number }[])[0]!.id;
    const newService = async (n: string) =>
      timed('POST', server.url + base, {
        ssid,
        body: { n, t: 'u', uid, f: 1 },
        timeoutMs: REQUEST_TIMEOUT_MS,
      });

    // Ballast: the disk is nearly full before the first attachment.
    const ballast = path.join(dataDir, 'ballast');
    const { bavail, bsize } = fs.statfsSync(dataDir);
    const ballastBytes = Math.max(0, bavail * bsize - LEFT_FREE_MB * 1024 * 1024);
    fs.writeFileSync(ballast, Buffer.alloc(ballastBytes, 1));

    let owner = (await newService('Full disk 0')).body as { id: number };
    let stored = 0;
    let failure: Outcome | undefined;
    for (let n = 0; n < MAX_UPLOADS && !failure; n++) {
      if (n > 0 && n % PER_SERVICE === 0) {
        const made = await newService(`Full disk ${n}`);
        if (made.status !== 200) {
          failure = made;
          break;
        }
        owner = made.body as { id: number };
      }
      const o = await upload(server, ssid, `${base}/${owner.id}/attachments`, `filler-${n}.pdf`);
      if (o.status === 200) stored++;
      else failure = o;
    }
    expect(failure, 'the disk never filled').toBeDefined();
    // While full: writes fail with the error shape, reads go on, the process stays up.
    const whileFull = {
      upload: await upload(server, ssid, `${base}/${owner.id}/attachments`, 'one-more.pdf'),
      read: await timed('GET', server.url + base, { ssid, timeoutMs: REQUEST_TIMEOUT_MS }),
      ping: await timed('GET', `${server.url}/api/ping`, { timeoutMs: REQUEST_TIMEOUT_MS }),
    };
    const dbFile = path.join(dataDir, 'fleetkeep.sqlite');
    const integrityFull = integrity(dbFile);

    // Space returns: the same process writes again.
    fs.rmSync(ballast);
    const again = await upload(server, ssid, `${base}/${owner.id}/attachments`, 'after.pdf');
    const service = await newService('Full disk, space back');
    console.log(
      `full disk: ${JSON.stringify({
        stored,
        failure: { status: failure!.status, body: failure!.body },
        whileFull: {
          upload: whileFull.upload.status,
          read: whileFull.read.status,
          ping: whileFull.ping.status,
        },
        integrityFull,
        afterFree: { upload: again.status, service: service.status },
      })}`,
    );
    expect(server.child.exitCode, server.output.join('').slice(-4000)).toBeNull();
    expect([BROKEN, TIMED_OUT]).not.toContain(failure!.status);
    expect(isErrorShape(failure!.body), JSON.stringify(failure!.body)).toBe(true);
    expect(isErrorShape(whileFull.upload.body), JSON.stringify(whileFull.upload.body)).toBe(true);
    expect(whileFull.read.status).toBe(200);
    expect(whileFull.ping.status).toBe(200);
    expect(integrityFull).toBe('ok');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(service.status, JSON.stringify(service.body)).toBe(200);

    // A restart on the same data: it starts, every stored attachment is listed, the file is intact.
    await server.stop();
    expect(server.child.exitCode).toBe(0);
    srv = await startInstance({ dataDir });
    const back = await signIn(srv.url, 'manager');
    const list = await back.get(`${base}/${owner.id}/attachments`);
    expect(list.status).toBe(200);
    expect((list.body.attachments as { name: string }[]).map((a) => a.name)).toContain('after.pdf');
    await srv.stop();
    expect(integrity(dbFile)).toBe('ok');
  }, 600_000);
});
