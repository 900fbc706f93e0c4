import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';

const KNOTS_TO_KMH = 1.852;
const MS_PER_HOUR = 3_600_000;

/** A body as a Traccar server forwards it with `forward.type=json`: `{position, device}`. */
function forwardBody(
  uniqueId: string,
  position: Record<string, unknown>,
  attributes: Record<string, unknown> = {},
) {
  const fix = new Date((position.time as number) * 1000).toISOString();
  const { time: _time, ...rest } = position;
  return {
    position: {
      id: 1001,
      attributes: { sat: 11, ignition: true, motion: true, power: 27.9, ...attributes },
      deviceId: 12,
      protocol: 'teltonika',
      serverTime: fix,
      deviceTime: fix,
      fixTime: fix,
      outdated: false,
      valid: true,
      latitude: 53.9,
      longitude: 27.56,
      altitude: 230,
      speed: 10,
      course: 90,
      address: null,
      accuracy: 0,
      network: null,
      geofenceIds: null,
      ...rest,
    },
    device: {
      id: 12,
      attributes: {},
      groupId: 0,
      name: uniqueId,
      uniqueId,
      status: 'online',
      disabled: false,
    },
  };
}

describe('Traccar position forwarding, POST /api/ingest/traccar (DESIGN §3)', () => {
  let t: TestServer;
  let manager: Client;
  let clock: number;
  const tick = () => ++clock;

  const unitOf = async (deviceId: string) => {
    const res = await manager.get(`/api/fleets/${t.demo.fleetId}/units`);
    expect(res.status).toBe(200);
    return res.body.units.find((u: { uid: string }) => u.uid === deviceId);
  };
  const forward = (body: unknown, headers: Record<string, string> = {}) =>
    t.anon.request('POST', '/api/ingest/traccar', body, headers);

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    clock = now();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores the position and moves the counters: odometer in metres, hours in milliseconds', async () => {
    const before = await unitOf('demo-003');
    const time = tick();
    const res = await forward(
      forwardBody(
        'demo-003',
        { time, latitude: 53.95, longitude: 27.6, speed: 20, course: 45, altitude: 231 },
        {
          odometer: Math.round((before.cnm + 25.5) * 1000),
          hours: (before.cneh + 1.25) * MS_PER_HOUR,
          fuel: 40,
        },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });

    const after = await unitOf('demo-003');
    expect(after.cnm).toBeCloseTo(before.cnm + 25.5, 3);
    expect(after.cneh).toBeCloseTo(before.cneh + 1.25, 3);
    expect(after.pos).toMatchObject({ t: time, y: 53.95, x: 27.6, c: 45, z: 231 });
    expect(after.pos.s).toBeCloseTo(20 * KNOTS_TO_KMH, 6);
    expect(after.prms).toMatchObject({ fuel: 40, sat: 11, power: 27.9 });
    expect(after.prms.odometer).toBeUndefined();
  });

  it('takes totalDistance in metres when there is no odometer', async () => {
    const before = await unitOf('demo-003');
    const res = await forward(
      forwardBody('demo-003', { time: tick() }, { totalDistance: (before.cnm + 3) * 1000 }),
    );
    expect(res.body).toEqual({ ok: true });
    expect((await unitOf('demo-003')).cnm).toBeCloseTo(before.cnm + 3, 3);
  });

  it('takes the time from fixTime, else from deviceTime', async () => {
    const fix = tick();
    const device = tick();
    const both = forwardBody('demo-004', { time: fix });
    both.position.deviceTime = new Date(device * 1000).toISOString();
    expect((await forward(both)).body).toEqual({ ok: true });
    expect((await unitOf('demo-004')).pos.t).toBe(fix);

    const later = tick();
    const onlyDevice = forwardBody('demo-004', { time: later, fixTime: undefined });
    expect((await forward(onlyDevice)).body).toEqual({ ok: true });
    expect((await unitOf('demo-004')).pos.t).toBe(later);

    const none = forwardBody('demo-004', { time: tick(), fixTime: undefined, deviceTime: undefined });
    const refused = await forward(none);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: 4,
      details: [{ field: 'position.fixTime', message: 'is required' }],
    });
  });

  it('answers a device that is no unit with 404 and stores nothing but the ingest log', async () => {
    const db = t.server.ctx.db.kysely;
    const res = await forward(forwardBody('ghost-traccar', { time: tick() }));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 5, reason: 'Unknown device' });
    const log = await db
      .selectFrom('ingest_log')
      .selectAll()
      .where('device_id', '=', 'ghost-traccar')
      .execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ unit_id: null, reason: 'Unknown device' });
  });

  it('answers a reading the counter rules refuse as OsmAnd does', async () => {
    const res = await forward(forwardBody('demo-004', { time: clock - 3000 }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: false, reason: 'Reading refused' });
  });

  it('asks no token while TRACCAR_FORWARD_TOKEN is unset', async () => {
    const res = await forward(forwardBody('demo-005', { time: tick() }), {
      authorization: 'Bearer anything',
    });
    expect(res.status).toBe(200);
  });

  describe('with TRACCAR_FORWARD_TOKEN set', () => {
    const token = 'tr4ccar-f0rward-s3cret';
    beforeAll(() => {
      t.server.ctx.config.traccarForwardToken = token;
    });
    afterAll(() => {
      t.server.ctx.config.traccarForwardToken = undefined;
    });

    it('refuses a request without the token with 401, before the body is read', async () => {
      const missing = await forward(forwardBody('demo-005', { time: tick() }));
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ error: 8, reason: 'Forward token required' });
      // A body that does not even parse: the token is checked first.
      const unread = await forward('{not json', { 'content-type': 'application/json' });
      expect(unread.status).toBe(401);
      const otherScheme = await forward(forwardBody('demo-005', { time: tick() }), {
        authorization: `SSID ${token}`,
      });
      expect(otherScheme.status).toBe(401);
    });

    it('refuses a wrong token with 401', async () => {
      for (const wrong of ['wrong', `${token}x`, token.slice(0, -1), token.toUpperCase()]) {
        const res = await forward(forwardBody('demo-005', { time: tick() }), {
          authorization: `Bearer ${wrong}`,
        });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 8, reason: 'Wrong forward token' });
      }
    });

    it('accepts the right token', async () => {
      const time = tick();
      const res = await forward(forwardBody('demo-005', { time }), { authorization: `Bearer ${token}` });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect((await unitOf('demo-005')).pos.t).toBe(time);
    });
  });

  it('is described in the OpenAPI document, without a session', async () => {
    const doc = (await t.anon.get('/api/openapi.json')).body;
    const op = doc.paths['/api/ingest/traccar'].post;
    expect(op.security).toEqual([]);
    expect(op.requestBody.content['application/json'].schema.properties).toHaveProperty('position');
  });
});
