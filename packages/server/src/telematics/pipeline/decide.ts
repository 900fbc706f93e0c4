import type { LiveUnit } from '../live-unit.js';
import type { Reading } from '../reading.js';
import { type Baseline, type CounterState, decide } from '../rules.js';

/**
 * Step 2 of ingestion (DESIGN §3): each reading of a group decided in order against its unit as the
 * group's earlier readings left it, by the pure rules (telematics/rules.ts `decide`) and the unit's
 * access. Pure: the verdicts are all the plan (plan.ts) needs to know about the readings.
 */

export const UNKNOWN_DEVICE = 'Unknown device';
export const ACCESS_DENIED = 'Access denied';
/** Readings of a unit whose fleet belongs to a suspended account are refused. */
export const ACCOUNT_SUSPENDED = 'Account is suspended';

export type IngestOutcome =
  | { status: 'accepted'; unitId: number; countersChanged: boolean }
  | { status: 'rejected'; unitId: number; reason: string }
  | { status: 'denied'; unitId: number; reason: string }
  | { status: 'suspended'; unitId: number; reason: string }
  | { status: 'unknown'; reason: string };

/** A reading taken: the unit's counter state before and after it. */
export interface Accepted {
  kind: 'accepted';
  reading: Reading;
  unit: LiveUnit;
  before: CounterState;
  next: CounterState;
  countersChanged: boolean;
  /** A device's first counter reading (rules.ts `Baseline`). */
  baseline: Baseline | null;
}

export type Verdict =
  /** No unit has the reading's device identifier. */
  | { kind: 'unknown'; reading: Reading }
  /** The unit's fleet belongs to a suspended account. */
  | { kind: 'suspended'; reading: Reading; unit: LiveUnit }
  /** The caller may not write the unit's fleet (a token of another fleet). */
  | { kind: 'denied'; reading: Reading; unit: LiveUnit }
  /** The rules refused it: kept in the meter history with what it would have set. */
  | {
      kind: 'refused';
      reading: Reading;
      unit: LiveUnit;
      reason: string;
      mileage: number | null;
      engineHours: number | null;
    }
  /** A resend of the unit's last message: acknowledged, nothing written. */
  | { kind: 'duplicate'; reading: Reading; unit: LiveUnit }
  | Accepted;

export interface Access {
  /** Whether the account is active (auth/access.ts `AccountTree`). */
  isActive(accountId: number): boolean;
  /** Readings of units whose fleet fails this test are denied and not stored. */
  allowFleet?: (fleetId: number | null) => boolean;
}

/** The verdicts of `readings` in order, at `t` (Unix seconds), against `units` by device identifier. */
export function decideGroup(
  units: ReadonlyMap<string, LiveUnit>,
  readings: readonly Reading[],
  t: number,
  access: Access,
): Verdict[] {
  // Each unit's state as the group's accepted readings so far left it.
  const states = new Map<number, CounterState>();
  return readings.map((reading): Verdict => {
    const unit = units.get(reading.deviceId);
    if (!unit) return { kind: 'unknown', reading };
    if (unit.fleetAccountId !== null && !access.isActive(unit.fleetAccountId))
      return { kind: 'suspended', reading, unit };
    if (access.allowFleet && !access.allowFleet(unit.fleetId)) return { kind: 'denied', reading, unit };
    const before = states.get(unit.id) ?? unit.state;
    const decision = decide(before, reading, t, { dailyMaxKm: unit.dailyMaxKm });
    if (!decision.ok) {
      const { reason, mileage, engineHours } = decision;
      return { kind: 'refused', reading, unit, reason, mileage, engineHours };
    }
    if (decision.duplicate) return { kind: 'duplicate', reading, unit };
    states.set(unit.id, decision.next);
    const { next, countersChanged, baseline } = decision;
    return { kind: 'accepted', reading, unit, before, next, countersChanged, baseline };
  });
}

/** What the entry point answers for a verdict. */
export function outcomeOf(v: Verdict): IngestOutcome {
  switch (v.kind) {
    case 'unknown':
      return { status: 'unknown', reason: UNKNOWN_DEVICE };
    case 'suspended':
      return { status: 'suspended', unitId: v.unit.id, reason: ACCOUNT_SUSPENDED };
    case 'denied':
      return { status: 'denied', unitId: v.unit.id, reason: ACCESS_DENIED };
    case 'refused':
      return { status: 'rejected', unitId: v.unit.id, reason: v.reason };
    case 'duplicate':
      return { status: 'accepted', unitId: v.unit.id, countersChanged: false };
    case 'accepted':
      return { status: 'accepted', unitId: v.unit.id, countersChanged: v.countersChanged };
  }
}
