import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { APIRequestContext, Page } from '@playwright/test';
import { freePort, type ServerInfo, startServer, stopServer } from '../server.ts';
import { apiSession, cpuThrottle, type DemoUser, expect, login, screenshot, test } from './fixtures.ts';

/** The map of spec §2 "Map": markers of the fleet, live positions, layers, the maps-service warning. */

interface Unit {
  id: number;
  uid: string;
  nm: string;
  pos: { y: number; x: number } | null;
}

async function fleetUnits(request: APIRequestContext, user: DemoUser = 'manager'): Promise<Unit[]> {
  const { headers, fid } = await apiSession(request, user);
  return (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units;
}

/** A marker's screen position once the map has settled (the first fit may animate). */
async function settledTransform(page: Page, selector: string): Promise<string> {
  let last = '';
  await expect
    .poll(async () => {
      const now = await page.locator(selector).evaluate((el) => (el as HTMLElement).style.transform);
      const stable = now === last;
      last = now;
      return stable;
    })
    .toBe(true);
  return last;
}

test('the dashboard map shows the fleet and follows unit messages without refetching', async ({
  page,
  request,
}) => {
  const units = await fleetUnits(request);
  const located = units.filter((u) => u.pos !== null);
  expect(located.length).toBeGreaterThan(0);
  const demo = units.find((u) => u.uid === 'demo-001');
  if (!demo?.pos) throw new Error('demo-001 has no position');

  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  const map = page.getByRole('region', { name: 'Fleet map' });
  await expect(map).toBeVisible();
  await expect(map.locator('.fk-unit-marker')).toHaveCount(located.length);
  await expect(page.getByRole('button', { name: 'Zoom in' })).toBeVisible();

  const marker = `.fk-unit-${demo.id}`;
  const before = await settledTransform(page, marker);
  const unitFetches: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/fleets\/\d+\/units/.test(r.url())) unitFetches.push(r.url());
  });
  const timestamp = Math.floor(Date.now() / 1000) + 1;
  const res = await request.get(
    `/api/ingest/osmand?id=demo-001&lat=${demo.pos.y + 0.05}&lon=${demo.pos.x + 0.05}&speed=40&bearing=45&timestamp=${timestamp}`,
  );
  expect(await res.json()).toEqual({ ok: true });
  await expect
    .poll(() => page.locator(marker).evaluate((el) => (el as HTMLElement).style.transform))
    .not.toBe(before);
  // Moving: the arrow is rotated by the course.
  await expect(page.locator(`${marker} svg`)).toHaveAttribute('style', /rotate\(45deg\)/);
  expect(unitFetches).toEqual([]);

  await page.locator(marker).hover();
  await expect(page.locator('.leaflet-tooltip')).toHaveText(demo.nm);

  // The unit page shows that unit only.
  await page.goto(`/unit/${demo.id}`);
  await expect(page.getByRole('region', { name: 'Fleet map' }).locator('.fk-unit-marker')).toHaveCount(1);
  await page.getByRole('button', { name: 'Show unit' }).click();
  await expect(page.locator(marker)).toBeVisible();
});

test('a user without viewMap sees no map (spec §6 "Geolocation")', async ({ page }) => {
  await login(page, 'viewer');
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Fleet map' })).toHaveCount(0);
  await expect(page.locator('.leaflet-container')).toHaveCount(0);
});

test('a maps-service load failure warns and falls back to free maps (spec §8)', async ({ page, request }) => {
  const root = await apiSession(request, 'root');
  const key = await (
    await request.post('/api/admin/map_keys', {
      headers: root.headers,
      data: { provider: 'google', key: 'x', type: 16 },
    })
  ).json();
  const manager = await apiSession(request, 'manager');
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    const select = page.getByLabel('Map layer');
    await expect(select.locator('option')).toHaveText(['OpenStreetMap', 'Google roads', 'Google satellite']);
    await select.selectOption({ label: 'Google satellite' });

    // No internet here: the provider script cannot load.
    const dialog = page.getByRole('dialog', { name: 'Warning!' });
    await expect(dialog).toContainText('The maps service could not be loaded.');
    await expect(dialog).toContainText('the app will use free maps, which may have outdated information');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog).toBeHidden();
    await expect(select).toHaveValue('osm');
    await expect(select.locator('option')).toHaveText(['OpenStreetMap']);
    await expect(page.getByTestId('fleet-map')).toHaveAttribute('data-layer', 'osm');
  } finally {
    await request.delete(`/api/admin/map_keys/${key.id}`, { headers: root.headers });
    await request.patch('/api/user/settings', { headers: manager.headers, data: { layer: 'osm' } });
  }
});

/** A 256 px PNG tile: a light grid in the colour of its zoom, so that loaded tiles are easy to see. */
function tilePng(): Buffer {
  const size = 256;
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const line = x % 64 === 0 || y % 64 === 0;
      row.set(line ? [170, 200, 170] : [226, 238, 222], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('the platform tile layer loads tiles through /api/gis/tiles and the choice persists', async ({
  page,
}) => {
  test.setTimeout(60_000 * cpuThrottle());
  const png = tilePng();
  let upstream = 0;
  const tiles = http.createServer((_req, res) => {
    upstream++;
    res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  const tilePort = await freePort();
  await new Promise<void>((resolve) => tiles.listen(tilePort, '127.0.0.1', resolve));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-e2e-gis-'));
  const info: ServerInfo = { port: await freePort(), dataDir, pidFile: path.join(dataDir, 'server.pid') };
  const previous = process.env.GIS_URL;
  process.env.GIS_URL = `http://127.0.0.1:${tilePort}/{z}/{x}/{y}.png`;
  try {
    await startServer(info);
    const base = `http://127.0.0.1:${info.port}`;
    await page.goto(`${base}/login`);
    await login(page, 'manager');
    await expect(page).toHaveURL(`${base}/dashboard`);
    const select = page.getByLabel('Map layer');
    await expect(select.locator('option')).toHaveText(['OpenStreetMap', 'Platform map']);

    const gisTile = page.waitForResponse((r) => /\/api\/gis\/tiles\/\d+\/\d+\/\d+\?sid=/.test(r.url()));
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/settings') && r.ok());
    await select.selectOption({ label: 'Platform map' });
    expect((await gisTile).status()).toBe(200);
    await saved;
    const loaded = page.locator('.fk-layer-gis img.leaflet-tile-loaded');
    await expect(loaded.first()).toBeVisible();
    expect(await loaded.first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(256);
    expect(upstream).toBeGreaterThan(0);

    // Restored after a reload.
    await page.reload();
    await expect(page.getByLabel('Map layer')).toHaveValue('gis');
    await expect(page.locator('.fk-layer-gis img.leaflet-tile-loaded').first()).toBeVisible();
    await expect(page.locator('.fk-unit-marker').first()).toBeVisible();
    await page.waitForTimeout(500);
    await screenshot(page, 'map-dashboard-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(500);
    await screenshot(page, 'map-dashboard-375');
    await page.getByRole('button', { name: 'Full size' }).click();
    await expect(page.getByRole('button', { name: 'Exit full size' })).toBeVisible();
    await page.waitForTimeout(300);
    await screenshot(page, 'map-full-375');
  } finally {
    if (previous === undefined) delete process.env.GIS_URL;
    else process.env.GIS_URL = previous;
    await stopServer(info);
    tiles.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the map measures again when its box changes size without a window resize', async ({ page }) => {
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  const map = page.getByRole('region', { name: 'Fleet map' });
  await expect(map.locator('.fk-unit-marker').first()).toBeVisible();
  const full = await map.boundingBox();
  if (!full) throw new Error('the map has no box');
  const rightEdge = full.x + full.width - 64;
  const tilesAtRight = () =>
    map
      .locator('.leaflet-tile-container img')
      .evaluateAll(
        (tiles, edge) => tiles.filter((t) => t.getBoundingClientRect().right >= edge).length,
        rightEdge,
      );
  await expect.poll(tilesAtRight).toBeGreaterThan(0);
  // Narrowed (and measured narrow: tiles far to the right are pruned), then given its width back by a
  // layout change alone, as when a panel or tab around it changes. Leaflet's own window-resize tracking
  // does not see that; the tiles must cover the right edge again.
  await map.evaluate((el) => {
    (el as HTMLElement).style.width = '300px';
    window.dispatchEvent(new Event('resize'));
  });
  await expect.poll(tilesAtRight).toBe(0);
  await map.evaluate((el) => {
    (el as HTMLElement).style.width = '';
  });
  await expect.poll(tilesAtRight).toBeGreaterThan(0);
});
