/**
 * The OsmAnd protocol as Traccar Client and many trackers send it (DESIGN §3): flat fields from a GET
 * query, a POST form or a flat JSON object, and the JSON body of newer Traccar Client versions. Pure:
 * no I/O, so every field form is unit tested.
 */

export type ParamValue = string | number | boolean;

/** One position message in the units the database keeps: Unix seconds, km/h, km, hours. */
/** The device entry points of the meter history (core contracts/meter.ts `meterSource`). */
export type ReadingSource = 'osmand' | 'teltonika' | 'traccar' | 'import';

export interface Reading {
  deviceId: string;
  /** Unix seconds (whole). */
  time: number;
  /**
   * Unix milliseconds, as precise as the message carries it (two readings in one second are
   * not out of order). Absent in readings made in code: `time` × 1000 then.
   */
  timeMs?: number;
  lat: number;
  lon: number;
  /** km/h. */
  speed: number | null;
  /** Degrees from north. */
  course: number | null;
  /** Metres. */
  altitude: number | null;
  ignition: boolean | null;
  /** Total odometer in km. */
  odometerKm: number | null;
  /** Total engine hours. */
  hours: number | null;
  /** Other message parameters, merged into the unit's parameters. */
  params: Record<string, ParamValue>;
  /**
   * Diagnostic trouble codes the message reported (Teltonika IO 281, Traccar's `dtcs` attribute),
   * e.g. "P0300"; absent when the protocol said nothing about them.
   */
  faultCodes?: string[];
  /**
   * The entry point, as the meter history names it (core contracts/meter.ts `meterSource`); set where the
   * reading enters (the OsmAnd and Traccar routes, the Teltonika server); absent: OsmAnd.
   */
  source?: ReadingSource;
  /** The input as received, kept in the ingest log when the reading is refused. */
  raw?: unknown;
}

export interface FieldProblem {
  field: string;
  message: string;
}

export type ParseResult =
  | { ok: true; reading: Reading }
  | { ok: false; reason: string; details: FieldProblem[] };

export const KNOTS_TO_KMH = 1.852;
const MPS_TO_KMH = 3.6;
/** Traccar's rule: a timestamp above 2^31 is in milliseconds. */
const MILLIS_THRESHOLD = 2 ** 31;
const DEVICE_ID_MAX = 128;
const PARAMS_MAX = 64;
const PARAM_KEY_MAX = 64;
const PARAM_TEXT_MAX = 256;

/** Fields with a meaning of their own; everything else becomes a unit parameter. */
const CORE_FIELDS = new Set([
  'id',
  'deviceid',
  'timestamp',
  'lat',
  'lon',
  'location',
  'speed',
  'bearing',
  'heading',
  'altitude',
  'ignition',
  'odometer',
  'hours',
]);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A repeated query parameter arrives as an array: the first value counts. */
function scalar(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

export function text(value: unknown): string | undefined {
  const v = scalar(value);
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') {
    const trimmed = v.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/**
 * Whether a JSON number reads as `text` of digits (`/^\d+(\.\d+)?$/` below): a whole number from 0 up
 * to where `String` turns to exponents. The batch endpoint's rows carry numbers, and a round trip
 * through text per field was a tenth of its CPU; the result is the same.
 */
const plainWhole = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) < 1e21 && !Object.is(v, -0);

/** `text(value) !== undefined` without making the text of a number (a number always has one). */
export const present = (value: unknown): boolean =>
  typeof scalar(value) === 'number' || text(value) !== undefined;

/** Unix milliseconds from seconds, milliseconds or ISO 8601 (no offset means UTC); undefined when unparsable. */
export function parseTimestampMs(value: unknown): number | undefined {
  const whole = scalar(value);
  if (plainWhole(whole)) return Math.floor(whole > MILLIS_THRESHOLD ? whole : whole * 1000);
  const v = text(value);
  if (v === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) {
    const n = Number(v);
    return Math.floor(n > MILLIS_THRESHOLD ? n : n * 1000);
  }
  const iso = ISO_DATE.exec(v);
  if (!iso) return undefined;
  const dateTime = v.replace(' ', 'T');
  // A date and time without an offset is UTC here, not the server's local time.
  const ms = Date.parse(dateTime.length > 10 && !iso[1] ? `${dateTime}Z` : dateTime);
  return Number.isFinite(ms) ? Math.floor(ms) : undefined;
}

/** Unix seconds from seconds, milliseconds or ISO 8601 (no offset means UTC); undefined when unparsable. */
export function parseTimestamp(value: unknown): number | undefined {
  const ms = parseTimestampMs(value);
  return ms === undefined ? undefined : Math.floor(ms / 1000);
}

/** The time a reading carries in Unix milliseconds (readings made in code carry whole seconds). */
export const readingMs = (reading: Pick<Reading, 'time' | 'timeMs'>): number =>
  reading.timeMs ?? reading.time * 1000;

function paramValue(value: unknown): ParamValue | undefined {
  const v = scalar(value);
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.length > PARAM_TEXT_MAX) return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  const n = Number(v);
  return v.trim() !== '' && Number.isFinite(n) ? n : v;
}

/** Collects problems while fields are read, so that one reply lists every bad field. */
export class FieldReader {
  readonly problems: FieldProblem[] = [];
  constructor(private readonly input: Record<string, unknown>) {}

  number(field: string, value: unknown = this.input[field]): number | null {
    const raw = scalar(value);
    let n: number;
    // A JSON number reads as its text would (Number(String(n)) is n, but −0 is 0), without the text.
    if (typeof raw === 'number') n = raw === 0 ? 0 : raw;
    else {
      const v = text(raw);
      if (v === undefined) return null;
      n = Number(v);
    }
    if (!Number.isFinite(n)) {
      this.problems.push({ field, message: 'must be a number' });
      return null;
    }
    return n;
  }

  range(field: string, n: number | null, min: number, max: number): number | null {
    if (n !== null && (n < min || n > max)) {
      this.problems.push({ field, message: `must be between ${min} and ${max}` });
      return null;
    }
    return n;
  }

  nonNegative(field: string, value: unknown = this.input[field]): number | null {
    const n = this.number(field, value);
    if (n !== null && n < 0) {
      this.problems.push({ field, message: 'must not be negative' });
      return null;
    }
    return n;
  }

  boolean(field: string, value: unknown = this.input[field]): boolean | null {
    const v = text(value)?.toLowerCase();
    if (v === undefined) return null;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    this.problems.push({ field, message: 'must be true or false' });
    return null;
  }
}

/** Unknown speed and course come as negative numbers from some devices (and Traccar Client's JSON). */
export const known = (n: number | null) => (n === null || n < 0 ? null : n);

export function collectParams(input: Record<string, unknown>, skip: Set<string>): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {};
  let count = 0;
  // Keys, not entries: no pair made per field of every row of a batch.
  for (const key of Object.keys(input)) {
    if (skip.has(key) || key === '__proto__' || key.length > PARAM_KEY_MAX || count >= PARAMS_MAX) continue;
    const v = paramValue(input[key]);
    if (v === undefined) continue;
    params[key] = v;
    count++;
  }
  return params;
}

export function finish(
  reader: FieldReader,
  idField: string,
  deviceId: string | undefined,
  fields: Omit<Reading, 'deviceId' | 'raw' | 'time'> & { timeMs: number },
  raw: unknown,
): ParseResult {
  const problems = [...reader.problems];
  if (deviceId === undefined) problems.unshift({ field: idField, message: 'is required' });
  else if (deviceId.length > DEVICE_ID_MAX)
    problems.unshift({ field: idField, message: `must be at most ${DEVICE_ID_MAX} characters` });
  if (problems.length > 0 || deviceId === undefined) {
    const first = problems[0]!;
    return { ok: false, reason: `${first.field} ${first.message}`, details: problems };
  }
  return { ok: true, reading: { deviceId, time: Math.floor(fields.timeMs / 1000), ...fields, raw } };
}

export function coordinate(reader: FieldReader, field: string, value: unknown, limit: number): number {
  if (!present(value)) {
    reader.problems.push({ field, message: 'is required' });
    return 0;
  }
  return reader.range(field, reader.number(field, value), -limit, limit) ?? 0;
}

/** Unix milliseconds of the message; `now` in Unix seconds. */
function time(reader: FieldReader, value: unknown, field: string, now: number): number {
  if (!present(value)) return now * 1000; // As Traccar does: a message without time is "now".
  const t = parseTimestampMs(value);
  if (t === undefined) reader.problems.push({ field, message: 'is not a valid time' });
  return t ?? now * 1000;
}

/** Flat OsmAnd fields: `id`/`deviceid`, `timestamp`, `lat`+`lon` or `location`, `speed` in knots, … */
function parseFlat(input: Record<string, unknown>, now: number): ParseResult {
  const r = new FieldReader(input);
  const location = text(input.location)?.split(',');
  const speedKnots = known(r.number('speed'));
  const odometerM = r.nonNegative('odometer');
  const fields = {
    timeMs: time(r, input.timestamp, 'timestamp', now),
    lat: coordinate(r, 'lat', location ? location[0] : input.lat, 90),
    lon: coordinate(r, 'lon', location ? location[1] : input.lon, 180),
    speed: speedKnots === null ? null : speedKnots * KNOTS_TO_KMH,
    course: known(r.number('bearing', input.bearing ?? input.heading)),
    altitude: r.number('altitude'),
    ignition: r.boolean('ignition'),
    odometerKm: odometerM === null ? null : odometerM / 1000,
    hours: r.nonNegative('hours'),
    params: collectParams(input, CORE_FIELDS),
  };
  return finish(r, 'id', text(input.id) ?? text(input.deviceid), fields, input);
}

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The JSON body of newer Traccar Client versions: `{device_id, location: {timestamp, coords: {latitude,
 * longitude, speed (m/s), heading, altitude, accuracy}, is_moving, odometer (m), battery: {level, is_charging}}}`.
 */
function parseTraccarJson(input: Record<string, unknown>, now: number): ParseResult {
  const loc = record(input.location);
  const coords = record(loc.coords);
  const battery = record(loc.battery);
  const extrasIn = record(loc.extras);
  const r = new FieldReader(loc);
  const speedMps = known(r.number('location.coords.speed', coords.speed));
  const odometerM = r.nonNegative('location.odometer', loc.odometer);
  const level = r.number('location.battery.level', battery.level);
  const extras: Record<string, unknown> = {
    ...extrasIn,
    accuracy: coords.accuracy,
    motion: loc.is_moving,
    batt: level !== null && level >= 0 ? Math.round(level * 100) : undefined,
    charge: battery.is_charging,
    activity: record(loc.activity).type,
    event: loc.event,
  };
  const fields = {
    timeMs: time(r, loc.timestamp, 'location.timestamp', now),
    lat: coordinate(r, 'location.coords.latitude', coords.latitude, 90),
    lon: coordinate(r, 'location.coords.longitude', coords.longitude, 180),
    speed: speedMps === null ? null : speedMps * MPS_TO_KMH,
    course: known(r.number('location.coords.heading', coords.heading)),
    altitude: r.number('location.coords.altitude', coords.altitude),
    ignition: r.boolean('location.extras.ignition', extrasIn.ignition),
    odometerKm: odometerM === null ? null : odometerM / 1000,
    hours: r.nonNegative('location.extras.hours', extrasIn.hours),
    params: collectParams(extras, new Set(['ignition', 'hours'])),
  };
  return finish(r, 'device_id', text(input.device_id) ?? text(input.id), fields, input);
}

/** Parses one message of any supported form; `now` (Unix seconds) stands in for a missing timestamp. */
export function parseOsmand(input: Record<string, unknown>, now: number): ParseResult {
  if (input.location !== null && typeof input.location === 'object' && !Array.isArray(input.location)) {
    return parseTraccarJson(input, now);
  }
  return parseFlat(input, now);
}
