import type { AppContext } from '../../context.js';

/**
 * Fleet statistics replies kept in memory (issue 10: the dashboard's statistics call at ≥ 100 req/s on
 * 10,000 units). A reply is served again only while nothing it was computed from has changed:
 *
 * - costs and fuel: every write of `cost_days` bumps the fleet's row of `statistics_versions` in its own
 *   transaction (cost-days.ts), and each request reads that row (one key lookup) before anything else,
 *   so a committed write is never answered from an older reply, on any instance (the version lives in
 *   the database, shared by the instances of a PostgreSQL deployment);
 * - distance, engine hours and the fleet's units (live counters, units joining, leaving or deleted):
 *   every such change publishes a unit event on the bus after its commit (telematics/store.ts `announce`,
 *   modules/fleets), which drops the fleet's replies here on every instance (ARCHITECTURE.md: caches are
 *   invalidated over the bus);
 * - the fleet's zone, fuel unit and measure system are part of the key.
 *
 * A reply computed while a write commits carries the version read before it, so the next request sees a
 * newer version and computes again. Concurrent requests for the same key share one computation.
 */

/** Replies kept per server (each a fleet's period; the least recently used go first). */
const MAX_ENTRIES = 16;

interface Entry<T> {
  fleetId: number;
  version: number;
  /** Bus invalidations of the fleet when the computation started. */
  epoch: number;
  value: Promise<T>;
}

const caches = new WeakMap<AppContext, StatisticsCache>();

export class StatisticsCache {
  private readonly entries = new Map<string, Entry<unknown>>();
  /** Per fleet: how many bus invalidations happened (an entry started before one is not kept). */
  private readonly epochs = new Map<number, number>();

  private constructor(private readonly ctx: AppContext) {
    // The listener lives as long as the bus; closing the server closes both.
    ctx.bus.subscribe((event) => {
      if (event.s === 'avl_unit' && event.fid !== null) this.forget(event.fid);
    });
  }

  static of(ctx: AppContext): StatisticsCache {
    let cache = caches.get(ctx);
    if (!cache) {
      cache = new StatisticsCache(ctx);
      caches.set(ctx, cache);
    }
    return cache;
  }

  /** Drops the fleet's replies. */
  forget(fleetId: number): void {
    this.epochs.set(fleetId, (this.epochs.get(fleetId) ?? 0) + 1);
    for (const [key, e] of this.entries) if (e.fleetId === fleetId) this.entries.delete(key);
  }

  /** The fleet's statistics version as committed (0 before its first cost write). */
  async version(fleetId: number): Promise<number> {
    const row = await this.ctx.db.kysely
      .selectFrom('statistics_versions')
      .select('version')
      .where('fleet_id', '=', fleetId)
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /** The reply of `key` from memory when still current, else `compute()` (kept for the next one). */
  async read<T>(fleetId: number, key: string, compute: () => Promise<T>): Promise<T> {
    const version = await this.version(fleetId);
    const epoch = this.epochs.get(fleetId) ?? 0;
    const known = this.entries.get(key);
    if (known && known.version === version && known.epoch === epoch) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known.value as Promise<T>;
    }
    const entry: Entry<T> = { fleetId, version, epoch, value: compute() };
    this.entries.set(key, entry);
    while (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    try {
      return await entry.value;
    } catch (err) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw err;
    }
  }
}
