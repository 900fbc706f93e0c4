import { haversineKm, MeterReason } from '@fleetkeep/core';
import { type Reading, readingMs } from './reading.js';

/**
 * Which readings may move a unit's counters, and how far (PRODUCT.md "Service objects and counters").
 * Pure, so that every rule is unit tested without a database.
 */

/** A clock a little ahead of ours is tolerated; beyond this a reading "lies in the future". */
export const FUTURE_TOLERANCE_S = 5 * 60;
/** "Jump more than 3,000 km in a day". */
export const MAX_KM_PER_DAY = 3000;
/** An engine cannot run more than 24 hours a day. */
export const MAX_HOURS_PER_DAY = 24;
/** A longer silence with the ignition on is not counted as engine time beyond this. */
export const MAX_IGNITION_GAP_S = 6 * 3600;
/**
 * Engine hours may not grow faster than the wall time (docs/product.md "Meter integrity"), beyond this:
 * a tracker that counts whole hours steps by one at any moment.
 */
export const HOURS_ROUNDING = 1;
/** Tolerance for counters that arrive rounded (1 m, 3.6 s). */
const EPSILON = 0.001;
const DAY_S = 86_400;

/** The refusal reasons, declared with the meter history's contract (core contracts/meter.ts). */
export const Reason = MeterReason;

/** What the rules need to know about a unit before the reading. */
export interface CounterState {
  /** Last accepted message, Unix seconds. */
  lastTime: number | null;
  /** The same in Unix milliseconds (readings keep the time they carry to the millisecond). */
  lastMs: number | null;
  lat: number | null;
  lon: number | null;
  ignition: boolean | null;
  mileage: number;
  engineHours: number;
  /**
   * Whether the unit's current device already set the odometer (engine hours) baseline. The first
   * reading of a device that carries the counter — the unit's first, or the first after its device
   * identifier changed — sets the counter instead of being measured against it (PRODUCT.md).
   */
  odometerSet: boolean;
  hoursSet: boolean;
}

/**
 * A baseline: the steps (new − old) of a device's first reading that are no distance driven (engine
 * time run). A step the jump rules would have accepted from the last message (forward, at most 3,000 km
 * or 24 hours a day, a day at least) is taken as driven and reported as 0; a larger or backward step is
 * the gap between two counting schemes (positions and a real odometer, an old and a new tracker).
 */
export interface Baseline {
  mileage: number;
  engineHours: number;
}

export type Decision =
  | {
      ok: true;
      next: CounterState;
      countersChanged: boolean;
      baseline: Baseline | null;
      /**
       * The reading repeats the last message exactly (same time, counters, position and ignition): a
       * resend, acknowledged and dropped (no position, no event).
       */
      duplicate: boolean;
    }
  | {
      ok: false;
      reason: string;
      /** What the reading would have set (kept with the refusal, so that a manager can accept it). */
      mileage: number | null;
      engineHours: number | null;
    };

/**
 * Decides a reading against the unit's state at `now` (Unix seconds). Accepted: mileage from the
 * odometer when sent, else the previous mileage plus the great-circle distance from the previous
 * position; engine hours from `hours` when sent, else the previous hours plus the time the ignition was
 * on at both readings (DESIGN §3). A reading without `ignition` keeps the unit's last known state.
 * A device's first odometer (hours) reading is a baseline: no backwards or jump rule applies to it.
 * `limits.dailyMaxKm`, the fleet's daily distance limit, refuses more distance a day where it is below
 * 3,000 km; engine hours may not grow faster than the time since the last message (`HOURS_ROUNDING`).
 * Order is decided on milliseconds: a second reading within one second is in order when it is later.
 * One at the very time of the last message is applied too (trackers such as Teltonika send several
 * records per second), unless its counters go back (then it is out of order).
 */
export function decide(
  prev: CounterState,
  reading: Reading,
  now: number,
  limits: { dailyMaxKm?: number | null } = {},
): Decision {
  const ms = readingMs(reading);
  // The fleet's daily distance limit applies where it is below the product's 3,000 km (PRODUCT.md).
  const fleetLimit = limits.dailyMaxKm ?? MAX_KM_PER_DAY;
  const maxKmPerDay = Math.min(MAX_KM_PER_DAY, fleetLimit);
  const jump = fleetLimit < MAX_KM_PER_DAY ? Reason.dailyDistance : Reason.mileageJump;
  // Candidate counters, for the refusal's record.
  const candidate = (): { mileage: number | null; engineHours: number | null } => ({
    mileage:
      reading.odometerKm ??
      (prev.lat !== null && prev.lon !== null
        ? prev.mileage + haversineKm(prev.lat, prev.lon, reading.lat, reading.lon)
        : null),
    engineHours: reading.hours,
  });
  const reject = (reason: string): Decision => ({ ok: false, reason, ...candidate() });

  if (reading.time > now + FUTURE_TOLERANCE_S) return reject(Reason.future);
  if (prev.lastMs !== null && ms < prev.lastMs) return reject(Reason.outOfOrder);
  const sameTime = ms === prev.lastMs;
  const backwards = (reason: string) => reject(sameTime ? Reason.outOfOrder : reason);

  // Without an earlier message there is no baseline to measure a jump against.
  const elapsed = prev.lastMs === null ? null : (ms - prev.lastMs) / 1000;
  const days = elapsed === null ? Number.POSITIVE_INFINITY : Math.max(1, Math.ceil(elapsed / DAY_S));

  let mileage = prev.mileage;
  let odometerSet = prev.odometerSet;
  let baseMileage = 0;
  // A first reading measures its step against at least one day, also without an earlier message.
  const stepDays = Number.isFinite(days) ? days : 1;
  if (reading.odometerKm !== null && !prev.odometerSet) {
    mileage = reading.odometerKm;
    const step = mileage - prev.mileage;
    baseMileage = step >= -EPSILON && step <= MAX_KM_PER_DAY * stepDays ? 0 : step;
    odometerSet = true;
  } else if (reading.odometerKm !== null) {
    if (reading.odometerKm < prev.mileage - EPSILON) return backwards(Reason.odometerBackwards);
    if (reading.odometerKm - prev.mileage > maxKmPerDay * days) return reject(jump);
    mileage = Math.max(prev.mileage, reading.odometerKm);
  } else if (prev.lat !== null && prev.lon !== null) {
    const km = haversineKm(prev.lat, prev.lon, reading.lat, reading.lon);
    if (km > maxKmPerDay * days) return reject(jump);
    mileage = prev.mileage + km;
  }

  const ignition = reading.ignition ?? prev.ignition;
  let engineHours = prev.engineHours;
  let hoursSet = prev.hoursSet;
  let baseHours = 0;
  if (reading.hours !== null && !prev.hoursSet) {
    engineHours = reading.hours;
    const step = engineHours - prev.engineHours;
    baseHours = step >= -EPSILON && step <= MAX_HOURS_PER_DAY * stepDays ? 0 : step;
    hoursSet = true;
  } else if (reading.hours !== null) {
    if (reading.hours < prev.engineHours - EPSILON) return backwards(Reason.hoursBackwards);
    if (reading.hours - prev.engineHours > MAX_HOURS_PER_DAY * days) return reject(Reason.hoursJump);
    if (elapsed !== null && reading.hours - prev.engineHours > elapsed / 3600 + HOURS_ROUNDING)
      return reject(Reason.hoursFasterThanTime);
    engineHours = Math.max(prev.engineHours, reading.hours);
  } else if (elapsed !== null && prev.ignition === true && ignition === true) {
    engineHours = prev.engineHours + Math.min(elapsed, MAX_IGNITION_GAP_S) / 3600;
  }

  const isBaseline = odometerSet !== prev.odometerSet || hoursSet !== prev.hoursSet;
  const countersChanged = mileage !== prev.mileage || engineHours !== prev.engineHours;
  return {
    ok: true,
    next: {
      lastTime: reading.time,
      lastMs: ms,
      lat: reading.lat,
      lon: reading.lon,
      ignition,
      mileage,
      engineHours,
      odometerSet,
      hoursSet,
    },
    countersChanged,
    baseline: isBaseline ? { mileage: baseMileage, engineHours: baseHours } : null,
    duplicate:
      sameTime &&
      !countersChanged &&
      !isBaseline &&
      reading.lat === prev.lat &&
      reading.lon === prev.lon &&
      ignition === prev.ignition,
  };
}

/**
 * Accepting a refused reading: it becomes the counter only when it is the newest the unit
 * has (not older than the last accepted message); an older one is only marked accepted.
 */
export function acceptBecomesCounter(unitLastMs: number | null, readingTimeMs: number): boolean {
  return unitLastMs === null || readingTimeMs >= unitLastMs;
}

/** What a recorded reading (manual, fuel filling) is measured against: the unit before it. */
export interface RecordedPrev {
  /** The newest time the unit's counters stand for, Unix ms: its last message or newest valid reading. */
  lastMs: number | null;
  mileage: number;
  engineHours: number;
}

/** A reading recorded by a person: a time and one or both counters. */
export interface RecordedReading {
  ms: number;
  mileage: number | null;
  engineHours: number | null;
}

export type RecordedDecision =
  | { ok: false; reason: string }
  /** Kept in the history; `voided` names the automatic void, else its counters become the unit's. */
  | { ok: true; voided: string | null };

/**
 * Decides a reading recorded by hand (PRODUCT.md "Service objects and counters", docs/product.md "Meter
 * integrity") at `now` (Unix seconds), with the fleet's daily distance limit (km). A reading in the
 * future is refused. Otherwise it is kept, and voided automatically with its reason when it is out of
 * sequence (older than what the counters stand for, or a counter below the unit's), when it adds more
 * than the daily limit per day since the last reading (a day at least), or when the engine hours grew by
 * more than the wall time since then. The unit's first reading sets the counters (nothing to measure
 * it against).
 */
export function decideRecorded(
  prev: RecordedPrev,
  reading: RecordedReading,
  now: number,
  dailyMaxKm: number,
): RecordedDecision {
  if (reading.ms > (now + FUTURE_TOLERANCE_S) * 1000) return { ok: false, reason: Reason.future };
  const valid: RecordedDecision = { ok: true, voided: null };
  if (prev.lastMs === null) return valid;
  const voided = (reason: string): RecordedDecision => ({ ok: true, voided: reason });
  if (reading.ms < prev.lastMs) return voided(Reason.outOfSequence);
  if (reading.mileage !== null && reading.mileage < prev.mileage - EPSILON)
    return voided(Reason.outOfSequence);
  if (reading.engineHours !== null && reading.engineHours < prev.engineHours - EPSILON)
    return voided(Reason.outOfSequence);
  const elapsed = (reading.ms - prev.lastMs) / 1000;
  const days = Math.max(1, Math.ceil(elapsed / DAY_S));
  if (reading.mileage !== null && reading.mileage - prev.mileage > dailyMaxKm * days + EPSILON)
    return voided(Reason.dailyDistance);
  if (reading.engineHours !== null && reading.engineHours - prev.engineHours > elapsed / 3600 + EPSILON)
    return voided(Reason.hoursFasterThanTime);
  return valid;
}
