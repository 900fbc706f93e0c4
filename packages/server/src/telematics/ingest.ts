import { type AppContext, now } from '../context.js';
import type { Reading } from './reading.js';
import { type IngestOptions, type IngestOutcome, storeReadings } from './store.js';

/**
 * The ingestion service used by every entry point (DESIGN §3): single readings from devices go through
 * a group commit, many readings of a gateway or of the simulator are stored in one go.
 */

export interface BatchRowResult {
  i: number;
  ok: boolean;
  reason?: string;
}

/** Readings written together at most; more wait for the next transaction. */
const MAX_GROUP = 500;

interface Waiting {
  reading: Reading;
  t: number;
  resolve(outcome: IngestOutcome): void;
  reject(err: unknown): void;
}

/**
 * Group commit (DESIGN §10 "batch writes on the hot paths"): readings that arrive in the same event-loop
 * turn, or while a transaction is running, are written together in one select and one transaction, in
 * arrival order, each decided on its own. Under load many small transactions become a few larger ones;
 * when idle a reading waits one event-loop turn.
 */
class GroupCommit {
  private waiting: Waiting[] = [];
  private busy = false;

  constructor(private readonly ctx: AppContext) {}

  submit(reading: Reading, t: number): Promise<IngestOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ reading, t, resolve, reject });
      if (this.busy) return;
      this.busy = true;
      // better-sqlite3 writes without yielding to I/O: wait for the requests of this event-loop turn first.
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) await this.write(this.waiting.splice(0, MAX_GROUP));
    } finally {
      this.busy = false;
    }
  }

  private async write(group: Waiting[]): Promise<void> {
    // The latest arrival is "now" for the group; it differs from each reading's by the wait only.
    const t = group.reduce((max, w) => Math.max(max, w.t), 0);
    try {
      const outcomes = await storeReadings(
        this.ctx,
        group.map((w) => w.reading),
        t,
      );
      group.forEach((w, k) => {
        w.resolve(outcomes[k]!);
      });
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(err);
      // A failing group is retried reading by reading, so that one bad reading fails alone.
      for (const w of group) await this.write([w]);
    }
  }
}

const groups = new WeakMap<AppContext, GroupCommit>();

/** One reading, decided against the unit's state at `t` (Unix seconds). */
export function ingestReading(ctx: AppContext, reading: Reading, t: number = now()): Promise<IngestOutcome> {
  let group = groups.get(ctx);
  if (!group) {
    group = new GroupCommit(ctx);
    groups.set(ctx, group);
  }
  return group.submit(reading, t);
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
