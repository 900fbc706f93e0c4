import { loadAccountTree } from '../auth/access.js';
import { type AppContext, now } from '../context.js';
import { unitOfWork } from '../events/unit-of-work.js';
import { unitsWithAssignments } from './baseline-shift.js';
import { type Announcement, announce, applyShifts } from './pipeline/announce.js';
import { commitPlan } from './pipeline/commit.js';
import { decideGroup, type IngestOutcome, type Verdict } from './pipeline/decide.js';
import { loadGroup } from './pipeline/load.js';
import { planGroup, shiftCandidates } from './pipeline/plan.js';
import type { Reading, ReadingSource } from './reading.js';
import { WarnLimiter } from './warn-limit.js';

/**
 * Where every entry point's readings end (OsmAnd port, `/api/ingest/*`, the Teltonika port, the demo
 * simulator): DESIGN §3 "Telematics ingestion", PRODUCT.md "Service objects and counters". A protocol
 * only decodes its messages into `Reading`s (step 1: reading.ts, teltonika/, traccar.ts); every group
 * of readings then takes the same steps (pipeline/): decide (the pure rules), plan (a pure value of
 * what to write), commit (one transaction), announce (after the commit).
 */

export { type Announcement, announce } from './pipeline/announce.js';
export {
  ACCESS_DENIED,
  ACCOUNT_SUSPENDED,
  type IngestOutcome,
  UNKNOWN_DEVICE,
} from './pipeline/decide.js';

export interface IngestOptions {
  /** Readings of units whose fleet fails this test are refused as 'Access denied' and not stored. */
  allowFleet?: (fleetId: number | null) => boolean;
  /** Where the readings come from, as the meter history names it (default: each reading's own, else OsmAnd). */
  source?: ReadingSource;
}

/** Readings committed: their outcomes in order, and what to announce now that they are durable. */
export interface StoredReadings {
  outcomes: IngestOutcome[];
  announcement: Announcement;
}

/** Warnings of unknown devices and refused readings, per device identifier (telematics/warn-limit.ts). */
const warnings = new WarnLimiter();

/** Stores readings in order (`writeReadings`), then announces them. */
export async function storeReadings(
  ctx: AppContext,
  readings: Reading[],
  t: number = now(),
  options: IngestOptions = {},
): Promise<IngestOutcome[]> {
  const stored = await writeReadings(ctx, readings, t, options);
  await announce(ctx, stored.announcement);
  return stored.outcomes;
}

/**
 * Decides, plans and commits readings in order, one transaction for all of them: one select of the
 * units (locked on PostgreSQL so that concurrent messages of a unit apply one after another), then the
 * plan's statements (pipeline/commit.ts). Each reading stands alone: a refused one does not affect the
 * others. After the commit the domain events are published to the consumers that want them
 * (events/unit-of-work.ts `recorded(types)`) and recorded interval baseline moves applied; the caller
 * announces the rest (`announce`).
 */
export async function writeReadings(
  ctx: AppContext,
  readings: Reading[],
  t: number = now(),
  options: IngestOptions = {},
): Promise<StoredReadings> {
  if (readings.length === 0) return { outcomes: [], announcement: { events: [], changed: [] } };
  // Cached per instance and dropped on every instance by an activation change (auth/access.ts).
  const cachedTree = await loadAccountTree(ctx);
  const { plan, faultEvents } = await unitOfWork(ctx, async (trx, uow) => {
    const { units, tree } = await loadGroup(trx, ctx.db.ops, readings, cachedTree);
    const verdicts = decideGroup(units, readings, t, {
      isActive: (accountId) => tree.isActive(accountId),
      allowFleet: options.allowFleet,
    });
    warnRefusals(ctx, verdicts);
    const assigned = await unitsWithAssignments(trx, shiftCandidates(verdicts));
    const plan = planGroup([...units.values()], verdicts, { t, source: options.source, assigned });
    const committed = await commitPlan(trx, ctx.db.ops, plan.writes);
    // Only consumers that want the recorded types are woken (events/outbox.ts `publish`); the status
    // engine's own events, if a reading crossed a notice, are published by the engine.
    const recorded = [...plan.recorded, ...committed.recorded];
    if (recorded.length > 0) uow.recorded(recorded);
    return { plan, faultEvents: committed.live };
  });
  const events = [...plan.messages, ...faultEvents, ...(await applyShifts(ctx, plan.shifted))];
  return { outcomes: plan.outcomes, announcement: { events, changed: plan.changed } };
}

/** A warning for the operator per unknown device or refused reading, rate-limited per device identifier. */
function warnRefusals(ctx: AppContext, verdicts: readonly Verdict[]): void {
  for (const v of verdicts) {
    if (v.kind !== 'unknown' && v.kind !== 'refused') continue;
    const skipped = warnings.take(v.reading.deviceId);
    if (skipped === null) continue;
    const reason = v.kind === 'unknown' ? 'Unknown device' : v.reason;
    const unitId = v.kind === 'refused' ? v.unit.id : undefined;
    ctx.log.warn({ deviceId: v.reading.deviceId, unitId, skipped }, `telematics reading refused: ${reason}`);
  }
}
