import { describe, expect, it } from 'vitest';
import { parseTraccarForward } from './traccar.js';

/** A body as Traccar 6 forwards it with `forward.type=json` (a Teltonika FMB of the field, shortened). */
function forwardBody(position: Record<string, unknown> = {}, device: Record<string, unknown> = {}) {
  return {
    position: {
      id: 48213,
      attributes: {
        priority: 0,
        sat: 14,
        event: 0,
        ignition: true,
        motion: true,
        rssi: 4,
        io69: 1,
        pdop: 0.8,
        power: 27.612,
        battery: 4.05,
        distance: 18.42,
        totalDistance: 152_340_120.5,
        odometer: 201_550_000,
        hours: 11_610_000_000,
      },
      deviceId: 7,
      protocol: 'teltonika',
      serverTime: '2024-03-05T08:15:03.512+00:00',
      deviceTime: '2024-03-05T08:15:01.000+00:00',
      fixTime: '2024-03-05T08:15:00.000+00:00',
      outdated: false,
      valid: true,
      latitude: 53.904539,
      longitude: 27.561523,
      altitude: 221.0,
      speed: 27.53,
      course: 184.0,
      address: null,
      accuracy: 0.0,
      network: null,
      geofenceIds: null,
      ...position,
    },
    device: {
      id: 7,
      attributes: {},
      groupId: 0,
      calendarId: 0,
      name: 'MAZ 5440',
      uniqueId: '352093081234567',
      status: 'online',
      lastUpdate: '2024-03-05T08:15:03.512+00:00',
      positionId: 48212,
      phone: null,
      model: null,
      contact: null,
      category: 'truck',
      disabled: false,
      expirationTime: null,
      ...device,
    },
  };
}

const withAttributes = (attributes: Record<string, unknown>) =>
  forwardBody({ attributes: { ...forwardBody().position.attributes, ...attributes } });

function ok(body: unknown) {
  const result = parseTraccarForward(body);
  if (!result.ok) throw new Error(`expected a reading, got ${result.reason}`);
  return result.reading;
}

function bad(body: unknown) {
  const result = parseTraccarForward(body);
  if (result.ok) throw new Error('expected a refusal');
  return result;
}

describe('Traccar position forwarding (forward.type=json)', () => {
  it('reads the unit, the fix time, the position and the counters', () => {
    const r = ok(forwardBody());
    expect(r).toMatchObject({
      deviceId: '352093081234567',
      time: Date.UTC(2024, 2, 5, 8, 15, 0) / 1000,
      timeMs: Date.UTC(2024, 2, 5, 8, 15, 0),
      lat: 53.904539,
      lon: 27.561523,
      course: 184,
      altitude: 221,
      ignition: true,
      odometerKm: 201_550,
      hours: 3225,
    });
    expect(r.speed).toBeCloseTo(27.53 * 1.852, 9);
    expect(r.faultCodes).toBeUndefined();
  });

  it('keeps the other attributes as unit parameters, not the ones it read', () => {
    const { params } = ok(forwardBody());
    expect(params).toEqual({
      priority: 0,
      sat: 14,
      event: 0,
      motion: true,
      rssi: 4,
      io69: 1,
      pdop: 0.8,
      power: 27.612,
      battery: 4.05,
      distance: 18.42,
    });
  });

  it('bounds the parameters as OsmAnd does', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`io${i}`, i]));
    const { params } = ok(withAttributes({ ...many, long: 'x'.repeat(300), ['k'.repeat(65)]: 1 }));
    expect(Object.keys(params)).toHaveLength(64);
    expect(params.long).toBeUndefined();
  });

  it('takes the device time when there is no fix time', () => {
    const r = ok(forwardBody({ fixTime: undefined }));
    expect(r.timeMs).toBe(Date.UTC(2024, 2, 5, 8, 15, 1));
  });

  it('reads Traccar’s older offset form (+0000)', () => {
    const r = ok(forwardBody({ fixTime: '2018-09-14T15:34:17.000+0000' }));
    expect(r.time).toBe(Date.UTC(2018, 8, 14, 15, 34, 17) / 1000);
  });

  it('needs a time: without fix time and device time the position is refused', () => {
    const result = bad(forwardBody({ fixTime: undefined, deviceTime: undefined }));
    expect(result.details).toEqual([{ field: 'position.fixTime', message: 'is required' }]);
    expect(bad(forwardBody({ fixTime: 'yesterday' })).details).toEqual([
      { field: 'position.fixTime', message: 'is not a valid time' },
    ]);
  });

  it('takes totalDistance in metres when there is no odometer', () => {
    const r = ok(withAttributes({ odometer: undefined }));
    expect(r.odometerKm).toBeCloseTo(152_340.1205, 6);
    expect(r.params.totalDistance).toBeUndefined();
  });

  it('has no counters when the attributes carry none', () => {
    const r = ok(forwardBody({ attributes: { sat: 9 } }));
    expect(r).toMatchObject({ odometerKm: null, hours: null, ignition: null, params: { sat: 9 } });
  });

  it('reads engine hours from milliseconds', () => {
    expect(ok(withAttributes({ hours: 5_400_000 })).hours).toBe(1.5);
    expect(ok(withAttributes({ hours: '7200000' })).hours).toBe(2);
  });

  it('reads ignition as OsmAnd does', () => {
    expect(ok(withAttributes({ ignition: false })).ignition).toBe(false);
    expect(ok(withAttributes({ ignition: 'true' })).ignition).toBe(true);
    expect(bad(withAttributes({ ignition: 'maybe' })).details).toEqual([
      { field: 'position.attributes.ignition', message: 'must be true or false' },
    ]);
  });

  it('reads the fault codes of the dtcs attribute', () => {
    expect(ok(withAttributes({ dtcs: 'P0300 p0171,C1234' })).faultCodes).toEqual(['P0300', 'P0171', 'C1234']);
    expect(ok(withAttributes({ dtcs: '' })).faultCodes).toEqual([]);
    expect(ok(withAttributes({ dtcs: 'P0300' })).params.dtcs).toBeUndefined();
  });

  it('treats an unknown speed or course (negative) as unknown', () => {
    expect(ok(forwardBody({ speed: -1, course: -1 }))).toMatchObject({ speed: null, course: null });
  });

  it('lists every bad field', () => {
    const result = bad(
      forwardBody(
        { latitude: 91, longitude: 'east', attributes: { odometer: -5, hours: 'x' } },
        { uniqueId: '' },
      ),
    );
    expect(result.details).toEqual([
      { field: 'device.uniqueId', message: 'is required' },
      { field: 'position.attributes.odometer', message: 'must not be negative' },
      { field: 'position.attributes.hours', message: 'must be a number' },
      { field: 'position.latitude', message: 'must be between -90 and 90' },
      { field: 'position.longitude', message: 'must be a number' },
    ]);
    expect(result.reason).toBe('device.uniqueId is required');
  });

  it('refuses a body without position or device', () => {
    const result = bad({});
    expect(result.details.map((d) => d.field)).toEqual([
      'device.uniqueId',
      'position.fixTime',
      'position.latitude',
      'position.longitude',
    ]);
  });
});
