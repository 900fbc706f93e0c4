import type { ParamValue, Reading } from '../reading.js';
import { type AvlRecord, type IoElement, ioNumber } from './codec.js';

/**
 * What a Teltonika AVL record means to Fleetkeep (DESIGN §3): the GPS element is the position, IO 16
 * the total odometer in metres, IO 239 the ignition, IO 281 the fault codes; an operator may map other
 * IO ids to mileage or engine hours per unit type (CAN mileage, engine worktime). Every other IO element
 * becomes a unit parameter `io<id>`. Pure.
 */

/** Total odometer, metres. */
export const IO_ODOMETER = 16;
/** Ignition, 0 or 1. */
export const IO_IGNITION = 239;
/** Fault codes (DTC), ASCII text of codes. */
export const IO_FAULT_CODES = 281;

/** An operator's mapping of a unit type's IO ids (core contracts: the unit type's Teltonika setting). */
export interface IoMapping {
  mileage?: { id: number; unit: 'm' | 'km' } | null;
  hours?: { id: number; unit: 's' | 'h' } | null;
}

/** As the OsmAnd parser keeps them (telematics/reading.ts). */
const PARAMS_MAX = 64;
/** Values of the fixed sizes are numbers; other (NX) values are bytes. */
const NUMBER_SIZES = new Set([1, 2, 4, 8]);
/** NX values up to this many bytes are kept as hex text (the parameter text limit is 256). */
const PARAM_BYTES_MAX = 64;

/** The codes of IO 281: ASCII, separated by commas or spaces (NULs of fixed-size values dropped). */
export function faultCodesOf(value: Buffer): string[] {
  return value
    .toString('latin1')
    .replace(/\0/g, ' ')
    .split(/[\s,;]+/)
    .map((c) => c.trim())
    .filter((c) => c !== '' && /^[\x21-\x7e]+$/.test(c));
}

/** A record without a GPS fix: Teltonika sends zero coordinates (and no satellites) then. */
export const hasFix = (r: AvlRecord): boolean => !(r.lat === 0 && r.lon === 0);

const find = (io: IoElement[], id: number) => io.find((e) => e.id === id);

/**
 * The reading of one record of the device `deviceId`. A mapped mileage (hours) IO id wins over IO 16
 * (ignition-based hours) when the record carries it.
 */
export function recordToReading(deviceId: string, record: AvlRecord, mapping: IoMapping = {}): Reading {
  const { io } = record;
  const mileage = mapping.mileage ? find(io, mapping.mileage.id) : undefined;
  const odometer = find(io, IO_ODOMETER);
  const odometerKm = mileage
    ? ioNumber(mileage.value) / (mapping.mileage!.unit === 'm' ? 1000 : 1)
    : odometer
      ? ioNumber(odometer.value) / 1000
      : null;
  const hoursIo = mapping.hours ? find(io, mapping.hours.id) : undefined;
  const hours = hoursIo ? ioNumber(hoursIo.value) / (mapping.hours!.unit === 's' ? 3600 : 1) : null;
  const ignitionIo = find(io, IO_IGNITION);
  const faults = find(io, IO_FAULT_CODES);

  const meaningful = new Set([IO_ODOMETER, IO_IGNITION, IO_FAULT_CODES, mileage?.id, hoursIo?.id]);
  const params: Record<string, ParamValue> = { sat: record.satellites };
  let count = 1;
  for (const e of io) {
    if (meaningful.has(e.id) || count >= PARAMS_MAX) continue;
    if (NUMBER_SIZES.has(e.value.length)) params[`io${e.id}`] = ioNumber(e.value);
    else if (e.value.length <= PARAM_BYTES_MAX) params[`io${e.id}`] = e.value.toString('hex');
    else continue;
    count++;
  }

  return {
    deviceId,
    time: Math.floor(record.timeMs / 1000),
    timeMs: record.timeMs,
    lat: record.lat,
    lon: record.lon,
    speed: record.speed,
    course: record.angle,
    altitude: record.altitude,
    ignition: ignitionIo ? ioNumber(ignitionIo.value) !== 0 : null,
    odometerKm,
    hours,
    params,
    ...(faults && { faultCodes: faultCodesOf(faults.value) }),
    raw: {
      protocol: 'teltonika',
      timeMs: record.timeMs,
      priority: record.priority,
      event: record.eventId,
      io: Object.fromEntries(io.map((e) => [e.id, e.value.toString('hex')])),
    },
  };
}
