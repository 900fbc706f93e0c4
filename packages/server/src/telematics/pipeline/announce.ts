import type { LiveEvent } from '@fleetkeep/core';
import type { AppContext } from '../../context.js';
import { announce as publishLive } from '../../events/unit-of-work.js';
import { applyPendingShifts, shiftedIntervalEvents } from '../baseline-shift.js';

/**
 * Step 5 of ingestion, after the commit: what the unit pages and the counters listeners (the status
 * engine) are told. The stored readings stay stored whatever happens here (a device told of a failure
 * would resend them), so failures are logged, not thrown.
 */

/** What the unit messages and the counters listeners are told after a commit (`announce`). */
export interface Announcement {
  events: LiveEvent[];
  /** Units whose counters moved, in the order they first moved. */
  changed: number[];
}

/**
 * Right after the commit: the interval baselines a group's baselines recorded are moved (baseline-shift.ts,
 * a transaction of their own), and the moved intervals' live events returned for the announcement. A
 * failure leaves the shifts pending: the next start applies them (routes.ts).
 */
export async function applyShifts(ctx: AppContext, units: number[]): Promise<LiveEvent[]> {
  if (units.length === 0) return [];
  try {
    const applied = await applyPendingShifts(ctx, units);
    return await shiftedIntervalEvents(ctx.db.kysely, applied);
  } catch (err) {
    ctx.log.error({ err }, 'interval baselines not moved with the counter baseline');
    return [];
  }
}

/** Publishes the live events, then tells the counters listeners which units' counters changed. */
export async function announce(ctx: AppContext, { events, changed }: Announcement): Promise<void> {
  try {
    await publishLive(ctx, events);
  } catch (err) {
    ctx.log.error({ err }, 'unit message events not published');
  }
  if (changed.length === 0) return;
  for (const listener of ctx.countersListeners) {
    try {
      await listener(changed);
    } catch (err) {
      ctx.log.error({ err, unitIds: changed }, 'counters listener failed');
    }
  }
}
