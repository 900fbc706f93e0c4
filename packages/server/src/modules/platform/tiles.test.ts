import { afterEach, describe, expect, it, vi } from 'vitest';
import { CACHE_SECONDS, TileCache } from './tiles.js';

/** A tile server stand-in: every request answers a PNG body naming the tile and counts. */
function stubTileServer(): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    return new Response(url, { headers: { 'content-type': 'image/png' } });
  });
  return asked;
}

describe('TileCache bounds', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps at most its bound of tiles, dropping the least recently used first', async () => {
    const asked = stubTileServer();
    const cache = new TileCache('https://tiles.test/{z}/{x}/{y}.png', 2);
    await cache.get(1, 0, 0, 0);
    await cache.get(1, 1, 0, 0);
    await cache.get(1, 0, 0, 0); // 1/0/0 is now the most recently used
    await cache.get(1, 1, 1, 0);
    expect(cache.upstreamRequests).toBe(3);
    await cache.get(1, 0, 0, 0);
    expect(cache.upstreamRequests).toBe(3);
    await cache.get(1, 1, 0, 0);
    expect(cache.upstreamRequests).toBe(4);
    expect(asked.at(-1)).toBe('https://tiles.test/1/1/0.png');
  });

  it('fetches a tile again once it is a day old', async () => {
    stubTileServer();
    const cache = new TileCache('https://tiles.test/{z}/{x}/{y}.png');
    const first = await cache.get(2, 1, 1, 1_000);
    expect((await cache.get(2, 1, 1, 1_000 + CACHE_SECONDS * 1000 - 1)).at).toBe(first.at);
    expect(cache.upstreamRequests).toBe(1);
    const again = await cache.get(2, 1, 1, 1_000 + CACHE_SECONDS * 1000);
    expect(cache.upstreamRequests).toBe(2);
    expect(again.at).toBe(1_000 + CACHE_SECONDS * 1000);
  });
});
