import { haversineKm, type UnitTypeName } from '@fleetkeep/core';
import { type AppContext, now } from '../context.js';
import { ingestBatch } from '../telematics/ingest.js';
import type { Reading } from '../telematics/reading.js';
import { DEMO_CENTRE } from './data.js';

/**
 * The demo simulator of DESIGN §3: drives the demo units (device ids `demo-…`) around DEMO_CENTRE
 * through the same ingestion path as real devices, so that counters move, events flow and services
 * fall due while a newcomer watches.
 */

/** Speed range in km/h by unit type; `nonmoving` runs its engine in place. */
const SPEEDS: Partial<Record<UnitTypeName, [number, number]>> = {
  nonmoving: [0, 0],
  tractor: [8, 25],
  other: [3, 12],
  specialized_vehicle: [5, 20],
  manipulator: [40, 70],
  heavy_truck: [60, 90],
  lorry: [60, 90],
  refrigerator: [60, 90],
  tipper: [50, 80],
  bus: [30, 60],
  van: [50, 100],
  microbus: [50, 100],
  pickup: [50, 110],
  car: [60, 130],
  motorbike: [50, 120],
};
const DEFAULT_SPEED: [number, number] = [40, 80];
/** Beyond this distance from the centre a unit turns back (it stays within ~30 km). */
const TURN_BACK_KM = 25;
/** Movement per tick is computed over at most this long, so a restart after a pause does not teleport. */
const MAX_STEP_S = 300;
/** On average a unit parks after this much driving… */
const MEAN_DRIVE_S = 30 * 60;
/** …for 2 to 15 minutes, ignition off. */
const PARK_MIN_S = 120;
const PARK_MAX_S = 900;
const KM_PER_DEGREE = 111.32;

export interface SimState {
  heading: number;
  speed: number;
  parkedUntil: number;
}

export interface SimPosition {
  lat: number;
  lon: number;
}

export interface SimStep extends SimPosition {
  speed: number;
  course: number;
  ignition: boolean;
}

const between = (random: () => number, min: number, max: number) => min + random() * (max - min);

export function initialState(type: UnitTypeName | null, random: () => number): SimState {
  const [min, max] = SPEEDS[type ?? 'other'] ?? DEFAULT_SPEED;
  return { heading: random() * 360, speed: between(random, min, max), parkedUntil: 0 };
}

function bearingDeg(from: SimPosition, to: SimPosition): number {
  const rad = Math.PI / 180;
  const y = Math.sin((to.lon - from.lon) * rad) * Math.cos(to.lat * rad);
  const x =
    Math.cos(from.lat * rad) * Math.sin(to.lat * rad) -
    Math.sin(from.lat * rad) * Math.cos(to.lat * rad) * Math.cos((to.lon - from.lon) * rad);
  return (Math.atan2(y, x) / rad + 360) % 360;
}

/**
 * One step of `dt` seconds at time `t` (Unix seconds): heading drifts, speed wanders within the type's
 * range, now and then the unit parks with the ignition off; past TURN_BACK_KM it heads back to the centre.
 * Mutates `state`; pure otherwise (`random` is injected).
 */
export function stepUnit(
  state: SimState,
  at: SimPosition,
  type: UnitTypeName | null,
  dt: number,
  t: number,
  random: () => number,
): SimStep {
  const [min, max] = SPEEDS[type ?? 'other'] ?? DEFAULT_SPEED;
  if (t < state.parkedUntil) return { ...at, speed: 0, course: state.heading, ignition: false };
  if (random() < Math.min(dt, MAX_STEP_S) / MEAN_DRIVE_S) {
    state.parkedUntil = t + between(random, PARK_MIN_S, PARK_MAX_S);
    return { ...at, speed: 0, course: state.heading, ignition: false };
  }
  if (max === 0) return { ...at, speed: 0, course: state.heading, ignition: true };

  if (haversineKm(at.lat, at.lon, DEMO_CENTRE.lat, DEMO_CENTRE.lon) > TURN_BACK_KM) {
    state.heading = (bearingDeg(at, DEMO_CENTRE) + between(random, -30, 30) + 360) % 360;
  } else {
    state.heading = (state.heading + between(random, -20, 20) + 360) % 360;
  }
  state.speed = Math.min(max, Math.max(min, state.speed + between(random, -8, 8)));
  const km = (state.speed * Math.min(dt, MAX_STEP_S)) / 3600;
  const rad = (state.heading * Math.PI) / 180;
  const lat = at.lat + (km * Math.cos(rad)) / KM_PER_DEGREE;
  const lon = at.lon + (km * Math.sin(rad)) / (KM_PER_DEGREE * Math.cos((at.lat * Math.PI) / 180));
  return { lat, lon, speed: state.speed, course: state.heading, ignition: true };
}

/** One round over the demo units at time `t`: each one that has not reported since `t` moves once. */
export async function simulateTick(
  ctx: AppContext,
  states: Map<number, SimState>,
  t: number,
  random: () => number = Math.random,
): Promise<void> {
  const units = await ctx.db.kysely
    .selectFrom('units')
    .leftJoin('unit_types', 'unit_types.id', 'units.unit_type_id')
    .select(['units.id', 'units.device_id', 'units.lat', 'units.lon', 'units.last_time', 'unit_types.name'])
    .where('units.device_id', 'like', 'demo-%')
    .orderBy('units.id')
    .execute();
  const readings: Reading[] = [];
  for (const unit of units) {
    // Readings are per second; a unit that already reported at `t` (or later) waits for the next tick.
    const dt = unit.last_time === null ? MAX_STEP_S : t - unit.last_time;
    if (dt <= 0) continue;
    const type = unit.name as UnitTypeName | null;
    let state = states.get(unit.id);
    if (!state) {
      state = initialState(type, random);
      states.set(unit.id, state);
    }
    const at = { lat: unit.lat ?? DEMO_CENTRE.lat, lon: unit.lon ?? DEMO_CENTRE.lon };
    const step = stepUnit(state, at, type, dt, t, random);
    readings.push({
      deviceId: unit.device_id,
      time: t,
      lat: step.lat,
      lon: step.lon,
      speed: Math.round(step.speed * 10) / 10,
      course: Math.round(step.course),
      altitude: 220,
      ignition: step.ignition,
      odometerKm: null,
      hours: null,
      params: {},
    });
  }
  const results = await ingestBatch(ctx, readings, t);
  const refused = results.filter((r) => !r.ok);
  if (refused.length > 0) ctx.log.debug({ refused }, 'simulator readings refused');
}

/** Runs `simulateTick` every `intervalMs` (at least a second: readings are per second) until stopped. */
export function startSimulator(ctx: AppContext, intervalMs: number): { stop(): void } {
  const states = new Map<number, SimState>();
  let busy = false;
  let stopped = false;
  const timer = setInterval(
    () => {
      if (busy || stopped) return;
      busy = true;
      simulateTick(ctx, states, now())
        .catch((err) => ctx.log.warn({ err }, 'simulator tick failed'))
        .finally(() => {
          busy = false;
        });
    },
    Math.max(1000, intervalMs),
  );
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
