import type { UnitMessageEvent } from '@fleetkeep/core';
import { round3 } from '../modules/fleets/mappers.js';
import type { Reading } from './reading.js';
import type { CounterState } from './rules.js';

/**
 * A unit as ingestion reads it for a group of readings (pipeline/load.ts), its message as the live event
 * carries it, and the columns every accepted reading writes (pipeline/plan.ts).
 */

/** Unit parameters grow by merging; a unit keeps at most this many. */
const UNIT_PARAMS_MAX = 200;
const LOG_PAYLOAD_MAX = 2000;

export interface LiveUnit {
  id: number;
  fleetId: number | null;
  deviceId: string;
  /** Counters at joining the fleet (actual = total − base + pulled); a baseline moves them with the total. */
  base: { mileage: number; engineHours: number };
  /** Account of the unit's fleet; null outside any fleet. */
  fleetAccountId: number | null;
  /** The fleet's daily distance limit, km (rules.ts `decide`); null outside any fleet. */
  dailyMaxKm: number | null;
  /** The fleet's zone (`fleets.tz`), for the counter history's days; 0 outside any fleet. */
  tz: number;
  state: CounterState;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  params: Record<string, unknown>;
  /** statistics: latest counter history day and its end, corrections so far (modules/statistics). */
  counterDay: number | null;
  counterDayEnd: number | null;
  offset: { mileage: number; engineHours: number };
}

export const parseParams = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
};

export function mergeParams(target: Record<string, unknown>, source: Reading['params']): void {
  let size = Object.keys(target).length;
  for (const [key, value] of Object.entries(source)) {
    if (!(key in target)) {
      if (size >= UNIT_PARAMS_MAX) continue;
      size++;
    }
    target[key] = value;
  }
}

export function payloadOf(reading: Reading): string {
  const { raw, ...parsed } = reading;
  const text = JSON.stringify(raw ?? parsed) ?? '';
  return text.length > LOG_PAYLOAD_MAX ? text.slice(0, LOG_PAYLOAD_MAX) : text;
}

export function messageEvent(unit: LiveUnit): UnitMessageEvent {
  const { state } = unit;
  const t = state.lastTime ?? 0;
  return {
    id: unit.id,
    lmsg: { t, p: unit.params },
    pos:
      state.lat === null || state.lon === null
        ? null
        : { t, y: state.lat, x: state.lon, s: unit.speed, c: unit.course, z: unit.altitude },
    cnm: round3(state.mileage),
    cneh: round3(state.engineHours),
  };
}

/** The live columns of a unit that every accepted reading moves. */
export function liveColumns(unit: LiveUnit) {
  const { state } = unit;
  return {
    last_time: state.lastTime,
    lat: state.lat,
    lon: state.lon,
    speed: unit.speed,
    course: unit.course,
    altitude: unit.altitude,
    ignition: state.ignition === null ? null : Number(state.ignition),
    mileage: state.mileage,
    engine_hours: state.engineHours,
    params: JSON.stringify(unit.params),
    counter_day: unit.counterDay, // statistics
    counter_day_end: unit.counterDayEnd, // statistics
    last_ms: state.lastMs, // meter
  };
}

/** SQL types of `liveColumns`, cast in the one update of many units so that both dialects bind alike. */
const LIVE_COLUMN_TYPES: Record<keyof ReturnType<typeof liveColumns>, string> = {
  last_time: 'bigint',
  lat: 'double precision',
  lon: 'double precision',
  speed: 'double precision',
  course: 'double precision',
  altitude: 'double precision',
  ignition: 'integer',
  mileage: 'double precision',
  engine_hours: 'double precision',
  params: 'text',
  counter_day: 'bigint',
  counter_day_end: 'bigint',
  last_ms: 'bigint',
};
export const LIVE_COLUMNS = Object.keys(LIVE_COLUMN_TYPES) as (keyof typeof LIVE_COLUMN_TYPES)[];
export const LIVE_TYPES = LIVE_COLUMNS.map((c) => LIVE_COLUMN_TYPES[c]);
