import { type AppContext, now } from '../context.js';
import type { Reading } from './reading.js';
import {
  announce,
  type IngestOptions,
  type IngestOutcome,
  type StoredReadings,
  storeReadings,
  writeReadings,
} from './store.js';

/**
 * The ingestion service used by every entry point (DESIGN §3): single readings from devices go through
 * a group commit, many readings of a gateway or of the simulator are stored in one go.
 */

export interface BatchRowResult {
  i: number;
  ok: boolean;
  reason?: string;
}

/** Readings written together at most; more wait for the next transaction (a packet is not split). */
const MAX_GROUP = 500;

/** One request's readings (one of an OsmAnd or Traccar request, a Teltonika packet's), answered together. */
interface Waiting {
  readings: Reading[];
  t: number;
  resolve(outcomes: IngestOutcome[]): void;
  reject(err: unknown): void;
}

/** A committed group waiting for its announcement: the requests are answered once it is made. */
interface Committed {
  group: Waiting[];
  stored: StoredReadings;
}

/**
 * Groups written at the same time where writing transactions run side by side (PostgreSQL, db/dialect
 * `serialWriters`): a group's time is mostly round trips, so a few in flight keep the database busy. On
 * SQLite one at a time.
 */
const CONCURRENT_GROUPS = 3;

/**
 * Group commit (DESIGN §10 "batch writes on the hot paths"): requests (one reading, or a tracker's
 * packet of several) that arrive in the same event-loop turn, or while transactions are running, are
 * written together in one select and one transaction, in arrival order, each reading decided on its
 * own. Under load many small transactions become a few larger ones; when idle a reading waits one
 * event-loop turn. On PostgreSQL up to `CONCURRENT_GROUPS` groups are written at once; a request of a
 * device that a group in flight holds waits for the next group (as do the device's later ones), so a
 * device's readings are still decided in arrival order; each group locks its units in id order.
 *
 * Two stages run side by side: the writers commit groups, and the announcer tells the bus and the
 * counters listeners (the status engine) what was committed, in commit order. Groups committed while
 * an announcement runs are announced together: their unit messages in order, the listeners once for the
 * union of their units (the engine reads the counters as they are then, so one run covers them all). A
 * request is answered only after its reading's commit and announcement (an acknowledged reading is
 * durable, and its status recomputation done, as before). A failing group answers no one success: it is
 * retried request by request, so that one bad reading (or packet) fails alone.
 */
class GroupCommit {
  private waiting: Waiting[] = [];
  private writers = 0;
  private scheduled = false;
  /** Device identifiers of the groups being written, with how many of them hold each. */
  private readonly inFlight = new Map<string, number>();
  private committed: Committed[] = [];
  private announcing = false;
  private readonly maxWriters: number;

  constructor(private readonly ctx: AppContext) {
    this.maxWriters = ctx.db.ops.serialWriters ? 1 : CONCURRENT_GROUPS;
  }

  submit(readings: Reading[], t: number): Promise<IngestOutcome[]> {
    if (readings.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.waiting.push({ readings, t, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Starts groups on the next event-loop turn: better-sqlite3 writes without yielding to I/O, so the
   * requests of this turn join first; between groups other requests get a turn (2,000 units reporting at
   * once would otherwise hold the event loop for seconds, load soak).
   */
  private schedule(): void {
    if (this.scheduled || this.writers >= this.maxWriters) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.start();
    });
  }

  private start(): void {
    while (this.writers < this.maxWriters && this.waiting.length > 0) {
      const group = this.take();
      if (group.length === 0) return; // every waiting device is held by a group in flight
      const devices = group.flatMap((w) => w.readings.map((r) => r.deviceId));
      for (const d of devices) this.inFlight.set(d, (this.inFlight.get(d) ?? 0) + 1);
      this.writers++;
      void this.write(group).finally(() => {
        for (const d of devices) {
          const n = this.inFlight.get(d)! - 1;
          if (n === 0) this.inFlight.delete(d);
          else this.inFlight.set(d, n);
        }
        this.writers--;
        if (this.waiting.length > 0) this.schedule();
      });
    }
  }

  /**
   * The next group: waiting requests in arrival order, up to `MAX_GROUP` readings (one request at least),
   * passing over those of a device a group in flight holds, and that device's later ones.
   */
  private take(): Waiting[] {
    const group: Waiting[] = [];
    const rest: Waiting[] = [];
    const held = new Set(this.inFlight.keys());
    let readings = 0;
    for (const w of this.waiting) {
      const full = group.length > 0 && readings + w.readings.length > MAX_GROUP;
      if (full || w.readings.some((r) => held.has(r.deviceId))) {
        rest.push(w);
        for (const r of w.readings) held.add(r.deviceId);
        continue;
      }
      group.push(w);
      readings += w.readings.length;
    }
    this.waiting = rest;
    return group;
  }

  private async write(group: Waiting[]): Promise<void> {
    // The latest arrival is "now" for the group; it differs from each reading's by the wait only.
    const t = group.reduce((max, w) => Math.max(max, w.t), 0);
    let stored: StoredReadings;
    try {
      stored = await writeReadings(
        this.ctx,
        group.flatMap((w) => w.readings),
        t,
      );
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(err);
      // A failing group is retried request by request, so that one bad reading fails alone.
      for (const w of group) await this.write([w]);
      return;
    }
    this.committed.push({ group, stored });
    if (!this.announcing) {
      this.announcing = true;
      void this.announceAll();
    }
  }

  /** Announces what is committed, in commit order, each round all groups committed meanwhile together. */
  private async announceAll(): Promise<void> {
    try {
      while (this.committed.length > 0) {
        const round = this.committed.splice(0);
        // The readings are stored whatever the bus or a listener does: failures are logged, not answered.
        await announce(this.ctx, {
          events: round.flatMap((c) => c.stored.announcement.events),
          changed: [...new Set(round.flatMap((c) => c.stored.announcement.changed))],
        }).catch((err) => this.ctx.log.error({ err }, 'readings not announced'));
        for (const { group, stored } of round) {
          let k = 0;
          for (const w of group) {
            w.resolve(stored.outcomes.slice(k, k + w.readings.length));
            k += w.readings.length;
          }
        }
      }
    } finally {
      this.announcing = false;
    }
  }
}

const groups = new WeakMap<AppContext, GroupCommit>();

function groupOf(ctx: AppContext): GroupCommit {
  let group = groups.get(ctx);
  if (!group) {
    group = new GroupCommit(ctx);
    groups.set(ctx, group);
  }
  return group;
}

/** One reading, decided against the unit's state at `t` (Unix seconds). */
export async function ingestReading(
  ctx: AppContext,
  reading: Reading,
  t: number = now(),
): Promise<IngestOutcome> {
  const [outcome] = await groupOf(ctx).submit([reading], t);
  return outcome!;
}

/**
 * A tracker's packet: its readings in order, stored in one transaction with other requests of the
 * moment (group commit) and answered together after the commit, or all failed.
 */
export function ingestPacket(
  ctx: AppContext,
  readings: Reading[],
  t: number = now(),
): Promise<IngestOutcome[]> {
  return groupOf(ctx).submit(readings, t);
}

/** Many readings in order, each standing alone (not all-or-nothing); per-row results `{i, ok, reason?}`. */
export async function ingestBatch(
  ctx: AppContext,
  readings: Reading[],
  t: number = now(),
  options: IngestOptions = {},
): Promise<BatchRowResult[]> {
  const outcomes = await storeReadings(ctx, readings, t, options);
  return outcomes.map((o, i) =>
    o.status === 'accepted' ? { i, ok: true } : { i, ok: false, reason: o.reason },
  );
}
