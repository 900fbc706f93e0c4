import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** A real tile server on loopback that counts its requests. */
async function tileServer() {
  const hits: string[] = [];
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url?.startsWith('/5/')) {
      res.writeHead(500).end('broken');
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { hits, png, url: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`, close: () => server.close() };
}

describe('platform calls (DESIGN §3)', () => {
  let t: TestServer;
  let upstream: Awaited<ReturnType<typeof tileServer>>;
  let root: Client;
  let viewer: Client;
  beforeAll(async () => {
    upstream = await tileServer();
    t = await startTestServer({ config: { gisUrl: upstream.url } });
    [root, viewer] = await Promise.all([t.login('root'), t.login('viewer')]);
  });
  afterAll(async () => {
    await t.close();
    upstream.close();
  });

  it('lets a super user manage map keys and every user read them through user/get_keys', async () => {
    const created = await root.post('/api/admin/map_keys', {
      provider: 'google',
      key: 'AIza-test',
      type: 16,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ provider: 'google', key: 'AIza-test', type: 16 });
    const keys = await viewer.post('/api/remoteapi/user/get_keys');
    expect(keys.status).toBe(200);
    expect(keys.body[String(created.body.id)]).toEqual({
      id: created.body.id,
      provider: 'google',
      key: 'AIza-test',
      type: 16,
    });

    expect((await viewer.post('/api/admin/map_keys', { provider: 'osm', key: 'k', type: 16 })).status).toBe(
      403,
    );
    expect((await viewer.get('/api/admin/map_keys')).status).toBe(403);
    expect((await viewer.delete(`/api/admin/map_keys/${created.body.id}`)).status).toBe(403);
    expect((await root.post('/api/admin/map_keys', { provider: '', key: 'k', type: 99 })).status).toBe(400);
    expect((await root.delete(`/api/admin/map_keys/${created.body.id}`)).status).toBe(200);
    expect((await root.delete(`/api/admin/map_keys/${created.body.id}`)).status).toBe(404);
    expect(await viewer.post('/api/remoteapi/user/get_keys').then((r) => r.body)).toEqual({});
  });

  it('takes no id, time or owner from a new map key’s body (mass assignment)', async () => {
    const taken = await root.post('/api/admin/map_keys', { provider: 'osm', key: 'first', type: 16 });
    const res = await root.post('/api/admin/map_keys', {
      provider: 'osm',
      key: 'second',
      type: 16,
      id: taken.body.id,
      created_at: 1,
      su: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(taken.body.id);
    const keys = (await root.get('/api/admin/map_keys')).body.map_keys;
    expect(keys.find((k: { id: number }) => k.id === taken.body.id)).toMatchObject({ key: 'first' });
    const row = await t.server.ctx.db.kysely
      .selectFrom('map_keys')
      .select('created_at')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.created_at).toBeGreaterThan(1);
    for (const k of [taken.body.id, res.body.id]) await root.delete(`/api/admin/map_keys/${k}`);
  });

  it('offers the tile layer in the auth reply and proxies tiles for a session, once per tile', async () => {
    const login = await t.anon.post('/api/login', { username: 'viewer', password: 'demo-password-1' });
    const auth = await t.anon.get(`/api/auth?access_token=${login.body.access_token}`);
    expect(auth.body.gis.url).toBe('/api/gis/tiles');
    const sid = auth.body.gis_sid;
    const before = upstream.hits.length;
    const first = await fetch(`${t.url}/api/gis/tiles/3/4/2?sid=${sid}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await first.arrayBuffer())).toEqual(upstream.png);
    const second = await fetch(`${t.url}/api/gis/tiles/3/4/2.png?sid=${sid}`);
    expect(second.status).toBe(200);
    expect(upstream.hits.slice(before)).toEqual(['/3/4/2.png']);
  });

  it('refuses tiles without a session, outside the grid, and reports a failing tile server', async () => {
    expect((await t.anon.get('/api/gis/tiles/3/4/2')).status).toBe(401);
    expect((await t.anon.get('/api/gis/tiles/3/4/2?sid=nope')).body.error).toBe(1);
    expect((await viewer.get('/api/gis/tiles/3/8/2')).status).toBe(400);
    expect((await viewer.get('/api/gis/tiles/23/0/0')).status).toBe(400);
    const broken = await viewer.get('/api/gis/tiles/5/1/1');
    expect(broken.status).toBe(502);
    expect(broken.body.error).toBe(6);
  });
});

describe('platform tile layer without GIS_URL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('is not offered and answers 404', async () => {
    const viewer = await t.login('viewer');
    expect((await viewer.get('/api/gis/tiles/1/0/0')).status).toBe(404);
    const login = await t.anon.post('/api/login', { username: 'viewer', password: 'demo-password-1' });
    const auth = await t.anon.get(`/api/auth?access_token=${login.body.access_token}`);
    expect(auth.body.gis.url).toBeNull();
  });
});
