import { parseFaultCodes } from '@fleetkeep/core';
import {
  collectParams,
  coordinate,
  FieldReader,
  finish,
  KNOTS_TO_KMH,
  known,
  type ParseResult,
  parseTimestampMs,
  present,
  text,
} from './reading.js';

/**
 * A Traccar server's position forwarding with `forward.type=json` (DESIGN §3 "adapters for outer
 * platforms"): one `{position, device}` per request, as Traccar's API models them. Pure: no I/O.
 *
 * - the unit: `device.uniqueId` (the device identifier, as OsmAnd's `id`);
 * - the time: `position.fixTime`, else `position.deviceTime` (ISO 8601); one of them is required, since
 *   Traccar may deliver a position late (its forwarding retries) and "now" would be wrong then;
 * - `latitude`, `longitude`, `speed` in knots, `course`, `altitude`;
 * - from `position.attributes`: `odometer` in metres, else `totalDistance` in metres (the counter
 *   Traccar keeps from the positions), `hours` in milliseconds, `ignition`, `dtcs` (codes separated by
 *   spaces or commas); the other attributes are kept as unit parameters, bounded as OsmAnd's.
 */

const MS_PER_HOUR = 3_600_000;

/** Attributes with a meaning of their own; the rest become unit parameters. */
const OWN_ATTRIBUTES = new Set(['odometer', 'totalDistance', 'hours', 'ignition', 'dtcs']);

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Unix milliseconds of the position: its fix time, else its device time. */
function positionTime(r: FieldReader, position: Record<string, unknown>): number {
  for (const field of ['fixTime', 'deviceTime'] as const) {
    if (!present(position[field])) continue;
    const ms = parseTimestampMs(position[field]);
    if (ms !== undefined) return ms;
    r.problems.push({ field: `position.${field}`, message: 'is not a valid time' });
    return 0;
  }
  r.problems.push({ field: 'position.fixTime', message: 'is required' });
  return 0;
}

/** Parses one forwarded body `{position, device}`. */
export function parseTraccarForward(body: unknown): ParseResult {
  const input = record(body);
  const position = record(input.position);
  const device = record(input.device);
  const attributes = record(position.attributes);
  const r = new FieldReader(position);
  const timeMs = positionTime(r, position);
  const speedKnots = known(r.number('position.speed', position.speed));
  const odometerM = present(attributes.odometer)
    ? r.nonNegative('position.attributes.odometer', attributes.odometer)
    : r.nonNegative('position.attributes.totalDistance', attributes.totalDistance);
  const hoursMs = r.nonNegative('position.attributes.hours', attributes.hours);
  const codes = attributes.dtcs === undefined ? undefined : parseFaultCodes(attributes.dtcs);
  const fields = {
    timeMs,
    lat: coordinate(r, 'position.latitude', position.latitude, 90),
    lon: coordinate(r, 'position.longitude', position.longitude, 180),
    speed: speedKnots === null ? null : speedKnots * KNOTS_TO_KMH,
    course: known(r.number('position.course', position.course)),
    altitude: r.number('position.altitude', position.altitude),
    ignition: r.boolean('position.attributes.ignition', attributes.ignition),
    odometerKm: odometerM === null ? null : odometerM / 1000,
    hours: hoursMs === null ? null : hoursMs / MS_PER_HOUR,
    params: collectParams(attributes, OWN_ATTRIBUTES),
    ...(codes !== undefined && { faultCodes: codes }),
  };
  return finish(r, 'device.uniqueId', text(device.uniqueId), fields, input);
}
