import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, DEMO_PASSWORD, startTestServer, type TestServer } from '../test/harness.js';

/** A raw GET: the body as it travelled, not decoded (fetch would undo the compression). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        })
        .on('error', reject);
    },
  );
}

/** Replies go out compressed when the client accepts it; request bodies are never inflated. */
describe('compression', () => {
  let t: TestServer;
  let manager: Client;
  let webDir: string;
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `'row ${i}'`).join(', ')}];\n`;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), script);
    t = await startTestServer({ config: { webDir } });
    manager = await t.login('manager');
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const unitsUrl = () => `${t.url}/api/fleets/${t.demo.fleetId}/units`;
  const auth = () => ({ authorization: `SSID ${manager.ssid}` });

  it('sends a large JSON reply as brotli, then gzip, by what the client accepts; the same data', async () => {
    const plain = await rawGet(unitsUrl(), auth());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await rawGet(unitsUrl(), { ...auth(), 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString())).toEqual(
      JSON.parse(plain.body.toString()),
    );

    const gz = await rawGet(unitsUrl(), { ...auth(), 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('sends a kept list as its kept compressed copy, the same bytes each time, and a change at once', async () => {
    const base = `/api/fleets/${t.demo.fleetId}`;
    const { body: units } = await manager.get(`${base}/units`);
    const uid = (units.units ?? units)[0].id as number;
    for (let i = 0; i < 8; i++) {
      const made = await manager.post(`${base}/services`, { n: `Compressed copy ${i}`, t: 'u', uid, f: 1 });
      expect(made.status).toBe(200);
    }
    const url = `${t.url}${base}/services`;
    const plain = await rawGet(url, auth());
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    const first = await rawGet(url, { ...auth(), 'accept-encoding': 'gzip, deflate, br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(first.headers.etag).toBe(plain.headers.etag);
    expect(Number(first.headers['content-length'])).toBe(first.body.length);
    expect(zlib.brotliDecompressSync(first.body).equals(plain.body)).toBe(true);
    const again = await rawGet(url, { ...auth(), 'accept-encoding': 'br' });
    expect(again.body.equals(first.body)).toBe(true);

    // Negotiated as the plugin does: a refused brotli gives gzip; deflate alone is left to the plugin.
    const gz = await rawGet(url, { ...auth(), 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    const deflated = await rawGet(url, { ...auth(), 'accept-encoding': 'deflate' });
    expect(deflated.headers['content-encoding']).toBe('deflate');
    expect(zlib.inflateSync(deflated.body).equals(plain.body)).toBe(true);

    // A change shows in the very next compressed read: the copies are kept per tag.
    const [service] = JSON.parse(plain.body.toString()).services as { id: number }[];
    expect(service).toBeDefined();
    const renamed = await manager.put(`${base}/services/${service!.id}`, {
      n: 'Renamed for the compressed copy',
    });
    expect(renamed.status).toBe(200);
    const after = await rawGet(url, { ...auth(), 'accept-encoding': 'br' });
    expect(after.headers.etag).not.toBe(plain.headers.etag);
    const list = JSON.parse(zlib.brotliDecompressSync(after.body).toString()).services as {
      id: number;
      n: string;
    }[];
    expect(list.find((s) => s.id === service!.id)?.n).toBe('Renamed for the compressed copy');
  });

  it('leaves small replies as they are', async () => {
    const ping = await rawGet(`${t.url}/api/ping`, { 'accept-encoding': 'br, gzip' });
    expect(ping.status).toBe(200);
    expect(ping.body.length).toBeLessThan(1024);
    expect(ping.headers['content-encoding']).toBeUndefined();
  });

  it('compresses the web app’s static scripts', async () => {
    const res = await rawGet(`${t.url}/assets/app.js`, { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.body).toString()).toBe(script);
  });

  it('does not inflate a compressed request body: a zipped login is refused as invalid JSON', async () => {
    const body = JSON.stringify({ username: 'manager', password: DEMO_PASSWORD });
    const plain = await fetch(`${t.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(plain.status).toBe(200);
    const zipped = await fetch(`${t.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: zlib.gzipSync(body),
    });
    expect(zipped.status).toBe(400);
    expect(await zipped.json()).toMatchObject({ error: expect.any(Number), reason: expect.any(String) });
  });
});
