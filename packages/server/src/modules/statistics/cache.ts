import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../context.js';
import type { UnitChangesTables } from './cost-days.js';

/**
 * Fleet statistics replies kept in memory (the dashboard's statistics call at ≥ 100 req/s on
 * 10,000 units, also while the fleet's data changes). A reply is served again while nothing it was
 * computed from has changed; when something has, only the units that changed are computed again and
 * patched into it (service.ts `fleetStatistics`), and the whole fleet only when that is not known:
 *
 * - costs and fuel: every write of `cost_days` bumps the fleet's row of `statistics_versions` in its own
 *   transaction and logs the units it moved under the version reached (`statistics_unit_changes`,
 *   cost-days.ts `bumpStatistics`). Each request reads that row (one key lookup) before anything else, so
 *   a committed write is never answered from an older reply, on any instance (the version lives in the
 *   database, shared by the instances of a PostgreSQL deployment); a reply of version v recomputes the
 *   units logged in (v, current], when the log still holds them all (`changes_from`);
 * - distance, engine hours and the fleet's units (live counters, units joining, leaving or deleted):
 *   every such change publishes a unit event on the bus after its commit (telematics/store.ts `announce`,
 *   modules/fleets), naming the unit (`d.id`); here it marks that unit changed on every instance
 *   (ARCHITECTURE.md: caches are invalidated over the bus), and an event without a unit drops the
 *   fleet's replies;
 * - the fleet's zone, fuel unit and measure system are part of the key.
 *
 * A reply computed while a write commits carries the version read before it, so the next request sees a
 * newer version and patches again (a patch computes the changed units' figures anew, never adds deltas,
 * so doing it twice is harmless). Concurrent requests for the same key share one computation.
 */

/** Replies kept per server (each a fleet's period; the least recently used go first). */
export const MAX_ENTRIES = 16;
/** A reply further behind than this many statistics versions is computed in full. */
const MAX_PATCH_VERSIONS = 256;
/** More changed units than this, and the whole fleet is computed again (one query per figure). */
export const MAX_PATCH_UNITS = 1000;
/** Units marked changed by bus events kept per fleet; past it, older replies are computed in full. */
const MAX_MARKED_UNITS = 4 * MAX_PATCH_UNITS;

/** What a computation started from, when it patches an earlier reply. */
export interface Patch<S> {
  previous: S;
  /** Units whose figures may differ from `previous` (members of the fleet or not). */
  units: ReadonlySet<number>;
}

interface Entry<S> {
  fleetId: number;
  version: number;
  /** The fleet's bus sequence when the computation started. */
  seq: number;
  value: Promise<S>;
}

/** Per fleet: the units named by bus events, each with the sequence number of its latest event. */
class FleetMarks {
  seq = 0;
  /** Entries started before this sequence cannot know their changed units: computed in full. */
  floor = 0;
  readonly units = new Map<number, number>();

  mark(unitId: number | null): void {
    this.seq++;
    if (unitId === null || this.units.size >= MAX_MARKED_UNITS) {
      this.floor = this.seq;
      this.units.clear();
      return;
    }
    // Re-inserted: the map stays ordered by sequence, so the loop below stops at the first older one.
    this.units.delete(unitId);
    this.units.set(unitId, this.seq);
  }

  changedSince(seq: number): boolean {
    return this.seq !== seq;
  }

  /** The units marked after `seq`, or null when that is no longer known. */
  since(seq: number): Set<number> | null {
    if (seq < this.floor) return null;
    const out = new Set<number>();
    for (const [unit, at] of [...this.units].reverse()) {
      if (at <= seq) break;
      out.add(unit);
    }
    return out;
  }
}

const caches = new WeakMap<AppContext, StatisticsCache>();

export class StatisticsCache {
  private readonly entries = new LRUCache<string, Entry<unknown>>({ max: MAX_ENTRIES });
  private readonly marks = new Map<number, FleetMarks>();

  private constructor(private readonly ctx: AppContext) {
    // The listener lives as long as the bus; closing the server closes both.
    ctx.bus.subscribe((event) => {
      if (event.s !== 'avl_unit' || event.fid === null) return;
      const id = (event.d as { id?: unknown } | null)?.id;
      this.marksOf(event.fid).mark(typeof id === 'number' ? id : null);
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

  private marksOf(fleetId: number): FleetMarks {
    let m = this.marks.get(fleetId);
    if (!m) {
      m = new FleetMarks();
      this.marks.set(fleetId, m);
    }
    return m;
  }

  /** Drops the fleet's replies. */
  forget(fleetId: number): void {
    this.marksOf(fleetId).mark(null);
  }

  private get db() {
    return this.ctx.db.kysely.withTables<UnitChangesTables>();
  }

  /** The fleet's statistics version as committed (0 before its first cost write). */
  async version(fleetId: number): Promise<number> {
    const row = await this.db
      .selectFrom('statistics_versions')
      .select('version')
      .where('fleet_id', '=', fleetId)
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /**
   * The units written in versions (from, to] of the fleet, or null when the log no longer holds all of
   * them. The floor is read after the log: it only rises, so when it is still at or below from + 1
   * then, nothing the log read needed had been dropped before it.
   */
  private async writtenUnits(fleetId: number, from: number, to: number): Promise<Set<number> | null> {
    const rows = await this.db
      .selectFrom('statistics_unit_changes')
      .select('unit_id')
      .distinct()
      .where('fleet_id', '=', fleetId)
      .where('version', '>', from)
      .where('version', '<=', to)
      .execute();
    const kept = await this.db
      .selectFrom('statistics_versions')
      .select('changes_from')
      .where('fleet_id', '=', fleetId)
      .executeTakeFirst();
    if (Number(kept?.changes_from ?? 0) > from + 1) return null;
    return new Set(rows.map((r) => r.unit_id));
  }

  /**
   * The reply of `key` from memory when still current, else `compute(patch)`: with the reply kept and the
   * units changed since when they are known and few, else with null (the whole fleet).
   */
  async read<S>(fleetId: number, key: string, compute: (patch: Patch<S> | null) => Promise<S>): Promise<S> {
    const version = await this.version(fleetId);
    const marks = this.marksOf(fleetId);
    const seq = marks.seq;
    const known = this.entries.get(key) as Entry<S> | undefined;
    if (known && known.version === version && !marks.changedSince(known.seq)) return known.value;
    const marked = known && version - known.version <= MAX_PATCH_VERSIONS ? marks.since(known.seq) : null;
    const patchFrom = async (): Promise<Patch<S> | null> => {
      if (!known || !marked) return null;
      const previous = await known.value.catch(() => null);
      if (previous === null) return null;
      const written =
        version === known.version
          ? new Set<number>()
          : await this.writtenUnits(fleetId, known.version, version);
      if (!written) return null;
      for (const u of marked) written.add(u);
      return written.size <= MAX_PATCH_UNITS ? { previous, units: written } : null;
    };
    const entry: Entry<S> = { fleetId, version, seq, value: patchFrom().then(compute) };
    this.entries.set(key, entry);
    try {
      return await entry.value;
    } catch (err) {
      if (this.entries.peek(key) === entry) this.entries.delete(key);
      throw err;
    }
  }
}
