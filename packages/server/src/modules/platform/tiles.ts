import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../context.js';
import { unexpected } from '../../http/errors.js';

/**
 * The platform tile layer (DESIGN §3): tiles of the operator's tile server (`GIS_URL`, a template with
 * {z}, {x}, {y}) proxied for signed-in users and cached in memory, so that many browsers cost the tile
 * server one request per tile and day.
 */

export const CACHE_TILES = 4000;
export const CACHE_SECONDS = 86400;
const FETCH_TIMEOUT_MS = 10_000;

export interface Tile {
  body: Buffer;
  type: string;
  at: number;
}

export class TileCache {
  /** Least recently used tiles dropped first; a tile older than a day is fetched again. */
  private readonly tiles: LRUCache<string, Tile>;
  private readonly pending = new Map<string, Promise<Tile>>();
  /** Requests that reached the tile server (for tests and diagnostics). */
  upstreamRequests = 0;

  constructor(
    private readonly template: string,
    maxTiles = CACHE_TILES,
  ) {
    this.tiles = new LRUCache({ max: maxTiles });
  }

  async get(z: number, x: number, y: number, nowMs = Date.now()): Promise<Tile> {
    const key = `${z}/${x}/${y}`;
    const hit = this.tiles.get(key);
    if (hit && nowMs - hit.at < CACHE_SECONDS * 1000) return hit;
    // Browsers ask for the same tile at once; one upstream request serves them all.
    let flight = this.pending.get(key);
    if (!flight) {
      flight = this.fetchTile(z, x, y, nowMs).finally(() => this.pending.delete(key));
      this.pending.set(key, flight);
    }
    return flight;
  }

  private async fetchTile(z: number, x: number, y: number, nowMs: number): Promise<Tile> {
    const url = this.template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
    this.upstreamRequests++;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    } catch {
      throw unexpected('Tile server unavailable');
    }
    if (!res.ok) throw unexpected(`Tile server answered ${res.status}`);
    const type = res.headers.get('content-type') ?? 'image/png';
    if (!type.startsWith('image/')) throw unexpected('Tile server answered no image');
    const tile = { body: Buffer.from(await res.arrayBuffer()), type, at: nowMs };
    this.tiles.set(`${z}/${x}/${y}`, tile);
    return tile;
  }
}

/** Valid slippy-map coordinates: zoom 0-22, x and y within the 2^z grid. */
export function isTileCoordinate(z: number, x: number, y: number): boolean {
  if (![z, x, y].every(Number.isInteger) || z < 0 || z > 22) return false;
  const n = 2 ** z;
  return x >= 0 && y >= 0 && x < n && y < n;
}

export function tileCacheOf(ctx: AppContext): TileCache | undefined {
  return ctx.config.gisUrl ? new TileCache(ctx.config.gisUrl) : undefined;
}
