import { ACL_ALL, type FleetTransferDocument } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountOf,
  type Client,
  createFleet,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { canonical } from './fixtures/canonical.js';
import { sampleDocument } from './fixtures/document.js';
import { exportPaging } from './pages.js';

/**
 * The streamed fleet export: the document is written while the fleet is read page by page,
 * so the first bytes reach the client before the last page is read; the result is the same document.
 * A hook of pages.ts holds the last page back until the client has the first bytes (no timing).
 * SQLite and PostgreSQL (TEST_DB).
 */

type Doc = FleetTransferDocument;
const DAY = 86400;

describe('streamed fleet export', () => {
  let t: TestServer;
  let accountId: number;
  let today: number;

  async function emptyFleet(name: string) {
    const fid = await createFleet(t, accountId, name);
    const user = `transfer-${name.replace(/\W+/g, '-').toLowerCase()}`;
    await createUser(t, { name: user, accountId, memberships: [{ fleetId: fid, acl: ACL_ALL }] });
    return { fid, client: await t.login(user) };
  }
  const exportOf = async (client: Client, fid: number): Promise<Doc> => {
    const res = await client.get(`/api/fleets/${fid}/export`);
    expect(res.status).toBe(200);
    return res.body as Doc;
  };

  beforeAll(async () => {
    t = await startTestServer();
    accountId = await accountOf(t, 'manager');
    today = Math.floor(Date.now() / 1000 / DAY) * DAY;
  });
  afterAll(() => t.close());

  it('streams the export: pages read as they are written, the first bytes before the last page', async () => {
    const s = await emptyFleet('Transfer S');
    const doc = sampleDocument(today);
    const f = doc.fuel_fillings[1]!;
    doc.fuel_fillings = Array.from({ length: 95 }, (_, i) => ({
      ...f,
      id: 1000 + i,
      filled_at: f.filled_at - i,
    }));
    expect((await s.client.post(`/api/fleets/${s.fid}/transfer`, { document: doc })).status).toBe(200);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fuelPages: number[] = [];
    const defaultSize = exportPaging.pageSize;
    exportPaging.pageSize = 10;
    // The last fuel page is held back until the client has received the first bytes.
    exportPaging.beforePage = async (collection, page) => {
      if (collection !== 'fuel_fillings') return;
      fuelPages.push(page);
      if (page === 9) await gate;
    };
    try {
      const res = await fetch(`${t.url}/api/fleets/${s.fid}/export`, {
        headers: { authorization: `SSID ${s.client.ssid}`, 'accept-encoding': 'identity' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBeNull();
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      expect(new TextDecoder().decode(first.value).startsWith('{"format":"fleetkeep-fleet"')).toBe(true);
      // Page 9 of 10 is not read yet: the document is being written while the fleet is read.
      expect(fuelPages).not.toContain(10);
      release();
      const parts: Uint8Array[] = [first.value!];
      for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
      const body = JSON.parse(Buffer.concat(parts).toString()) as Doc;
      expect(body.fuel_fillings).toHaveLength(95);
      expect(fuelPages).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // Same document as read in one go.
      const whole = canonical(body);
      exportPaging.pageSize = defaultSize;
      exportPaging.beforePage = null;
      const again = canonical(await exportOf(s.client, s.fid));
      for (const key of Object.keys(whole) as (keyof typeof whole)[])
        expect(again[key], key).toEqual(whole[key]);
      exportPaging.pageSize = 7;
      const csv = await s.client.get(`/api/fleets/${s.fid}/export/fuel_fillings.csv`);
      expect(String(csv.body).split('\r\n').filter(Boolean)).toHaveLength(96);
    } finally {
      release();
      exportPaging.pageSize = defaultSize;
      exportPaging.beforePage = null;
    }
  });
});
