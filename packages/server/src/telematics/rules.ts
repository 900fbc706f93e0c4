import { haversineKm } from '@fleetkeep/core';
import type { Reading } from './reading.js';

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
/** Tolerance for counters that arrive rounded (1 m, 3.6 s). */
const EPSILON = 0.001;
const DAY_S = 86_400;

export const Reason = {
  future: 'Reading is in the future',
  outOfOrder: 'Reading is out of order',
  odometerBackwards: 'Odometer went backwards',
  hoursBackwards: 'Engine hours went backwards',
  mileageJump: 'Implausible mileage jump',
  hoursJump: 'Implausible engine hours jump',
} as const;

/** What the rules need to know about a unit before the reading. */
export interface CounterState {
  lastTime: number | null;
  lat: number | null;
  lon: number | null;
  ignition: boolean | null;
  mileage: number;
  engineHours: number;
}

export type Decision =
  | { ok: true; next: CounterState; countersChanged: boolean }
  | { ok: false; reason: string };

const reject = (reason: string): Decision => ({ ok: false, reason });

/**
 * Decides a reading against the unit's state at `now` (Unix seconds). Accepted: mileage from the
 * odometer when sent, else the previous mileage plus the great-circle distance from the previous
 * position; engine hours from `hours` when sent, else the previous hours plus the time the ignition was
 * on at both readings (DESIGN §3). A reading without `ignition` keeps the unit's last known state.
 */
export function decide(prev: CounterState, reading: Reading, now: number): Decision {
  if (reading.time > now + FUTURE_TOLERANCE_S) return reject(Reason.future);
  if (prev.lastTime !== null && reading.time <= prev.lastTime) return reject(Reason.outOfOrder);

  // Without an earlier message there is no baseline to measure a jump against.
  const elapsed = prev.lastTime === null ? null : reading.time - prev.lastTime;
  const days = elapsed === null ? Number.POSITIVE_INFINITY : Math.max(1, Math.ceil(elapsed / DAY_S));

  let mileage = prev.mileage;
  if (reading.odometerKm !== null) {
    if (reading.odometerKm < prev.mileage - EPSILON) return reject(Reason.odometerBackwards);
    if (reading.odometerKm - prev.mileage > MAX_KM_PER_DAY * days) return reject(Reason.mileageJump);
    mileage = Math.max(prev.mileage, reading.odometerKm);
  } else if (prev.lat !== null && prev.lon !== null) {
    const km = haversineKm(prev.lat, prev.lon, reading.lat, reading.lon);
    if (km > MAX_KM_PER_DAY * days) return reject(Reason.mileageJump);
    mileage = prev.mileage + km;
  }

  const ignition = reading.ignition ?? prev.ignition;
  let engineHours = prev.engineHours;
  if (reading.hours !== null) {
    if (reading.hours < prev.engineHours - EPSILON) return reject(Reason.hoursBackwards);
    if (reading.hours - prev.engineHours > MAX_HOURS_PER_DAY * days) return reject(Reason.hoursJump);
    engineHours = Math.max(prev.engineHours, reading.hours);
  } else if (elapsed !== null && prev.ignition === true && ignition === true) {
    engineHours = prev.engineHours + Math.min(elapsed, MAX_IGNITION_GAP_S) / 3600;
  }

  return {
    ok: true,
    next: { lastTime: reading.time, lat: reading.lat, lon: reading.lon, ignition, mileage, engineHours },
    countersChanged: mileage !== prev.mileage || engineHours !== prev.engineHours,
  };
}
