import crypto from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDiskFull } from '../../http/errors.js';
import { type Client, startTestServer, type TestServer } from '../harness.js';

/**
 * A full disk answers 507 `{error: 11, reason: "The server's disk is full"}`, not an
 * unexpected fault: SQLite's SQLITE_FULL (here from `max_page_count`, the same error a full DATA_DIR
 * gives; the tmpfs version is full-disk.soak.ts) and ENOSPC of a file write (a real one, to /dev/full).
 * Nothing of the failed write is stored, reads go on, and writes succeed again once there is room,
 * without a restart. SQLite's own database is used on both test runs: a full disk under PostgreSQL is
 * PostgreSQL's (its SQLSTATE 53100 maps alike).
 */

const FULL = { error: 11, reason: "The server's disk is full" };
const FILE_BYTES = 300 * 1024;

async function upload(t: TestServer, ssid: string, url: string, names: string[]) {
  const form = new FormData();
  for (const name of names)
    form.append('file', new Blob([crypto.randomBytes(FILE_BYTES)], { type: 'application/pdf' }), name);
  const res = await fetch(t.url + url, {
    method: 'POST',
    headers: { authorization: `SSID ${ssid}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

describe('a full disk', () => {
  let t: TestServer;
  let manager: Client;
  let base = '';
  let serviceId = 0;

  const pragma = async (text: string) =>
    (await sql.raw(`pragma ${text}`).execute(t.server.ctx.db.kysely)).rows as Record<string, unknown>[];

  beforeAll(async () => {
    t = await startTestServer({
      config: { databaseUrl: undefined },
      beforeListen(app) {
        // A real ENOSPC: /dev/full refuses every write with "No space left on device".
        app.post('/test/write-to-full-device', async () => {
          fs.writeFileSync('/dev/full', 'x');
          return { error: 0 };
        });
      },
    });
    manager = await t.login('manager');
    base = `/api/fleets/${t.demo.fleetId}/services`;
    const uid = (await manager.get(`/api/fleets/${t.demo.fleetId}/units`)).body.units[0].id;
    serviceId = (await manager.post(base, { n: 'Disk full', t: 'u', uid, f: 1 })).body.id;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers 507 error 11 on SQLITE_FULL, stores nothing of the write, reads on, and writes again with room', async () => {
    const [{ page_count: pages }] = (await pragma('page_count')) as [{ page_count: number }];
    await pragma(`max_page_count = ${pages}`);
    try {
      const full = await upload(t, manager.ssid!, `${base}/${serviceId}/attachments`, ['a.pdf', 'b.pdf']);
      expect(full).toEqual({ status: 507, body: FULL });
      // Reads go on while the disk is full, and the failed upload left nothing behind.
      const list = await manager.get(`${base}/${serviceId}/attachments`);
      expect(list.status).toBe(200);
      expect(list.body.attachments).toEqual([]);
      expect((await manager.get(`${base}/${serviceId}`)).body.ats).toBe(0);
      expect((await manager.get(base)).status).toBe(200);
    } finally {
      await pragma('max_page_count = 1073741823');
    }
    const again = await upload(t, manager.ssid!, `${base}/${serviceId}/attachments`, ['a.pdf', 'b.pdf']);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const names = (await manager.get(`${base}/${serviceId}/attachments`)).body.attachments.map(
      (a: { name: string }) => a.name,
    );
    expect(names.sort()).toEqual(['a.pdf', 'b.pdf']);
    expect(await pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('answers 507 error 11 on ENOSPC of a file write', async () => {
    const reply = await t.anon.post('/test/write-to-full-device', {});
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 507, body: FULL });
  });

  it('knows a full disk by SQLite, PostgreSQL and file-system codes, also as a cause', () => {
    expect(isDiskFull(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(
      true,
    );
    expect(isDiskFull(Object.assign(new Error('could not extend file'), { code: '53100' }))).toBe(true);
    const enospc = Object.assign(new Error('no space'), { code: 'ENOSPC' });
    expect(isDiskFull(new Error('backup failed', { cause: enospc }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('syntax'), { code: 'SQLITE_ERROR' }))).toBe(false);
    expect(isDiskFull(new Error('plain'))).toBe(false);
  });
});
