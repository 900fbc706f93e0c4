import { describe, expect, it } from 'vitest';
import { parseOsmand, parseTimestamp, parseTimestampMs } from './reading.js';

const NOW = 1_700_000_000;

function ok(input: Record<string, unknown>) {
  const result = parseOsmand(input, NOW);
  if (!result.ok) throw new Error(`expected a reading, got ${result.reason}`);
  return result.reading;
}

function bad(input: Record<string, unknown>) {
  const result = parseOsmand(input, NOW);
  if (result.ok) throw new Error('expected a refusal');
  return result;
}

describe('OsmAnd timestamps (DESIGN §3)', () => {
  it('reads Unix seconds', () => {
    expect(parseTimestamp('1700000123')).toBe(1_700_000_123);
    expect(parseTimestamp(1_700_000_123)).toBe(1_700_000_123);
    expect(parseTimestamp('1700000123.9')).toBe(1_700_000_123);
  });

  it('reads milliseconds when the number is larger than 2^31', () => {
    expect(parseTimestamp('1700000123456')).toBe(1_700_000_123);
    expect(parseTimestamp(2 ** 31)).toBe(2 ** 31);
    expect(parseTimestamp(2 ** 31 + 1)).toBe(Math.floor((2 ** 31 + 1) / 1000));
  });

  it('reads ISO 8601 with an offset, with Z, and without an offset as UTC', () => {
    expect(parseTimestamp('2023-11-14T22:13:20Z')).toBe(1_700_000_000);
    expect(parseTimestamp('2023-11-14T22:13:20.750Z')).toBe(1_700_000_000);
    expect(parseTimestamp('2023-11-15T00:13:20+02:00')).toBe(1_700_000_000);
    expect(parseTimestamp('2023-11-14T22:13:20')).toBe(1_700_000_000);
    expect(parseTimestamp('2023-11-14 22:13:20')).toBe(1_700_000_000);
    expect(parseTimestamp('2023-11-14')).toBe(1_699_920_000);
  });

  it('refuses what is not a time', () => {
    for (const v of ['yesterday', '-5', '2023-13-45T99:00:00Z', '12:00', 'NaN', '1e9']) {
      expect(parseTimestamp(v), v).toBeUndefined();
    }
  });
});

describe('OsmAnd flat fields (GET query, POST form, flat JSON)', () => {
  it('reads every field and converts knots, metres and hours', () => {
    const r = ok({
      id: 'dev-1',
      timestamp: '1700000000',
      lat: '53.9',
      lon: '27.56',
      speed: '10',
      bearing: '90.5',
      altitude: '220',
      accuracy: '12',
      batt: '87',
      ignition: 'true',
      odometer: '123456',
      hours: '1234.5',
    });
    expect(r).toMatchObject({
      deviceId: 'dev-1',
      time: 1_700_000_000,
      lat: 53.9,
      lon: 27.56,
      course: 90.5,
      altitude: 220,
      ignition: true,
      odometerKm: 123.456,
      hours: 1234.5,
      params: { accuracy: 12, batt: 87 },
    });
    expect(r.speed).toBeCloseTo(18.52, 9);
  });

  it('takes deviceid for id, heading for bearing, and location=lat,lon', () => {
    const r = ok({ deviceid: 'dev-2', location: '-33.5,151.25', heading: '270', ignition: 'false' });
    expect(r).toMatchObject({ deviceId: 'dev-2', lat: -33.5, lon: 151.25, course: 270, ignition: false });
  });

  it('reads numbers and booleans of a JSON row as well as text', () => {
    const r = ok({
      id: 'dev-3',
      lat: 1.5,
      lon: -2.5,
      timestamp: 1_700_000_100,
      ignition: true,
      odometer: 5000,
    });
    expect(r).toMatchObject({ lat: 1.5, lon: -2.5, time: 1_700_000_100, ignition: true, odometerKm: 5 });
  });

  it('reads a JSON number exactly as its text (the number fast path)', () => {
    const values = [
      0,
      -0,
      7,
      1.5,
      -3.25,
      91,
      2 ** 31,
      2 ** 31 + 1,
      1_700_000_100_123,
      1e21,
      1e-7,
      -1,
      Number.NaN,
    ];
    values.push(Number.POSITIVE_INFINITY, 1_700_000_000.5);
    for (const v of values) {
      const fields = {
        lat: v,
        lon: v,
        speed: v,
        bearing: v,
        altitude: v,
        odometer: v,
        hours: v,
        timestamp: v,
      };
      const asNumber = parseOsmand({ id: 'dev-n', ...fields }, NOW);
      const asText = parseOsmand(
        { id: 'dev-n', ...Object.fromEntries(Object.entries(fields).map(([k, x]) => [k, String(x)])) },
        NOW,
      );
      // Only `raw` (the input as received) differs.
      const strip = (r: typeof asNumber) => (r.ok ? { ...r, reading: { ...r.reading, raw: undefined } } : r);
      expect(strip(asNumber), String(v)).toEqual(strip(asText));
      expect(parseTimestampMs(v), String(v)).toBe(parseTimestampMs(String(v)));
    }
  });

  it('uses now when there is no timestamp and leaves absent fields empty', () => {
    const r = ok({ id: 'dev-4', lat: '0', lon: '0' });
    expect(r).toMatchObject({
      time: NOW,
      speed: null,
      course: null,
      altitude: null,
      ignition: null,
      odometerKm: null,
      hours: null,
      params: {},
    });
  });

  it('keeps other parameters as unit parameters, typed like Traccar does', () => {
    const r = ok({ id: 'd', lat: '1', lon: '2', fuel: '45.5', door: 'true', driver: 'A-17', hdop: '0.9' });
    expect(r.params).toEqual({ fuel: 45.5, door: true, driver: 'A-17', hdop: 0.9 });
  });

  it('keeps at most 64 parameters and never a __proto__ key', () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, k) => [`p${k}`, String(k)]));
    const r = ok({ id: 'd', lat: '1', lon: '2', ...many, ...JSON.parse('{"__proto__": "x"}') });
    expect(Object.keys(r.params)).toHaveLength(64);
    expect(Object.hasOwn(r.params, '__proto__')).toBe(false);
  });

  it('treats a negative speed or bearing as unknown', () => {
    const r = ok({ id: 'd', lat: '1', lon: '2', speed: '-1', bearing: '-1' });
    expect(r.speed).toBeNull();
    expect(r.course).toBeNull();
  });

  it('takes the first value of a repeated parameter', () => {
    expect(ok({ id: ['a', 'b'], lat: ['1', '9'], lon: '2' })).toMatchObject({ deviceId: 'a', lat: 1 });
  });

  it('refuses a reading without a device identifier', () => {
    const r = bad({ lat: '1', lon: '2' });
    expect(r.reason).toBe('id is required');
    expect(r.details).toEqual([{ field: 'id', message: 'is required' }]);
  });

  it('refuses coordinates out of range or missing', () => {
    expect(bad({ id: 'd', lat: '90.01', lon: '0' }).reason).toBe('lat must be between -90 and 90');
    expect(bad({ id: 'd', lat: '0', lon: '-180.5' }).reason).toBe('lon must be between -180 and 180');
    expect(bad({ id: 'd', lat: '0' }).reason).toBe('lon is required');
    expect(bad({ id: 'd', location: '12.5' }).reason).toBe('lon is required');
    expect(bad({ id: 'd', lat: 'north', lon: '0' }).reason).toBe('lat must be a number');
  });

  it('refuses an unparsable timestamp', () => {
    expect(bad({ id: 'd', lat: '1', lon: '2', timestamp: 'soon' }).reason).toBe(
      'timestamp is not a valid time',
    );
  });

  it('lists every bad field', () => {
    const r = bad({ lat: '100', lon: 'x', speed: 'fast', ignition: 'maybe', odometer: '-1' });
    expect(r.details.map((d) => d.field).sort()).toEqual([
      'id',
      'ignition',
      'lat',
      'lon',
      'odometer',
      'speed',
    ]);
  });
});

describe('Traccar Client JSON body', () => {
  const body = {
    device_id: 'phone-1',
    location: {
      timestamp: '2023-11-14T22:13:20.000Z',
      coords: { latitude: 53.9, longitude: 27.56, speed: 10, heading: 45, altitude: 210, accuracy: 5 },
      is_moving: true,
      odometer: 2500,
      battery: { level: 0.42, is_charging: false },
      activity: { type: 'in_vehicle' },
    },
  };

  it('reads position, m/s speed, odometer in metres and battery', () => {
    const r = ok(body);
    expect(r).toMatchObject({
      deviceId: 'phone-1',
      time: 1_700_000_000,
      lat: 53.9,
      lon: 27.56,
      speed: 36,
      course: 45,
      altitude: 210,
      odometerKm: 2.5,
      ignition: null,
      hours: null,
      params: { accuracy: 5, motion: true, batt: 42, charge: false, activity: 'in_vehicle' },
    });
  });

  it('reads ignition and engine hours from extras', () => {
    const r = ok({
      ...body,
      location: { ...body.location, extras: { ignition: true, hours: 12.5, fuel: 7 } },
    });
    expect(r).toMatchObject({ ignition: true, hours: 12.5 });
    expect(r.params.fuel).toBe(7);
    expect(r.params).not.toHaveProperty('ignition');
  });

  it('treats the unknown values of the client (-1) as absent', () => {
    const coords = { ...body.location.coords, speed: -1, heading: -1 };
    const r = ok({ ...body, location: { ...body.location, coords, battery: { level: -1 } } });
    expect(r.speed).toBeNull();
    expect(r.course).toBeNull();
    expect(r.params).not.toHaveProperty('batt');
  });

  it('refuses a body without coordinates or identifier', () => {
    expect(bad({ device_id: 'p', location: { coords: {} } }).reason).toBe(
      'location.coords.latitude is required',
    );
    expect(bad({ location: body.location }).reason).toBe('device_id is required');
    const far = { ...body.location, coords: { latitude: 91, longitude: 0 } };
    expect(bad({ device_id: 'p', location: far }).reason).toBe(
      'location.coords.latitude must be between -90 and 90',
    );
  });
});

describe('timestamps to the millisecond', () => {
  it('keeps the milliseconds a message carries', () => {
    expect(parseTimestampMs('1700000123456')).toBe(1_700_000_123_456);
    expect(parseTimestampMs('1700000123.25')).toBe(1_700_000_123_250);
    expect(parseTimestampMs('1700000123')).toBe(1_700_000_123_000);
    expect(parseTimestampMs('2023-11-14T22:13:20.750Z')).toBe(1_700_000_000_750);
    expect(parseTimestampMs('soon')).toBeUndefined();
    const r = parseOsmand({ id: 'd', lat: '1', lon: '2', timestamp: '1700000123456' }, 1_700_000_200);
    expect(r.ok && r.reading).toMatchObject({ time: 1_700_000_123, timeMs: 1_700_000_123_456 });
  });
});
