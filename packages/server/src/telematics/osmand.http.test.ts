import { haversineKm } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { now } from '../context.js';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';
import { startOsmandServer } from './osmand-server.js';

/** A signed-in websocket on /events that records what it receives (DESIGN §6). */
async function openEvents(t: TestServer, client: Client) {
  const socket = new WebSocket(`${t.url.replace('http', 'ws')}/events`);
  const received: any[] = [];
  const waiters: { match: (e: any) => boolean; resolve: (e: any) => void }[] = [];
  socket.on('message', (raw) => {
    const event = JSON.parse(String(raw));
    received.push(event);
    for (const w of waiters.filter((w) => w.match(event))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(event);
    }
  });
  const next = (match: (e: any) => boolean) =>
    new Promise<any>((resolve, reject) => {
      const seen = received.find(match);
      if (seen) return resolve(seen);
      waiters.push({ match, resolve });
      socket.once('close', () => reject(new Error('socket closed')));
    });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ ssid: client.ssid }));
  await next((e) => e.t === 'e' && e.s === 'user' && e.d?.ready === true);
  return { received, next, close: () => socket.close() };
}

describe('OsmAnd ingestion (DESIGN §3)', () => {
  let t: TestServer;
  let osmand: { port: number; close(): Promise<void> };
  let manager: Client;
  let base: string;
  let clock: number;
  const tick = () => ++clock;

  const unitOf = async (deviceId: string, client = manager, fleetId = t.demo.fleetId) => {
    const res = await client.get(`/api/fleets/${fleetId}/units`);
    expect(res.status).toBe(200);
    return res.body.units.find((u: { uid: string }) => u.uid === deviceId);
  };

  beforeAll(async () => {
    t = await startTestServer();
    osmand = await startOsmandServer(t.server.ctx, 0, '127.0.0.1');
    base = `http://127.0.0.1:${osmand.port}`;
    manager = await t.login('manager');
    clock = now();
  });
  afterAll(async () => {
    await osmand?.close();
    await t?.close();
  });

  it('listens on a free port when asked for port 0', () => {
    expect(osmand.port).toBeGreaterThan(0);
  });

  it('moves counters from a Traccar Client GET and delivers the message to the fleet’s websocket', async () => {
    const before = await unitOf('demo-001');
    const managerEvents = await openEvents(t, manager);
    const outsider = await t.login('outsider');
    const outsiderEvents = await openEvents(t, outsider);
    const heard: number[][] = [];
    t.server.ctx.countersListeners.push(async (ids) => {
      heard.push(ids);
    });

    const time = tick();
    const odometer = Math.round((before.cnm + 12.345) * 1000);
    const res = await fetch(
      `${base}/?id=demo-001&lat=53.91&lon=27.57&timestamp=${time}&speed=20&bearing=45&altitude=230&odometer=${odometer}&hours=${before.cneh + 0.5}&batt=77&fuel=41.5`,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });

    const after = await unitOf('demo-001');
    expect(after.cnm).toBeCloseTo(before.cnm + 12.345, 3);
    expect(after.cneh).toBeCloseTo(before.cneh + 0.5, 3);
    expect(after.pos).toMatchObject({ t: time, y: 53.91, x: 27.57, c: 45, z: 230 });
    expect(after.pos.s).toBeCloseTo(37.04, 6);
    expect(after.prms).toMatchObject({ batt: 77, fuel: 41.5 });

    const event = await managerEvents.next((e) => e.s === 'avl_unit' && e.d?.id === before.id);
    expect(event).toMatchObject({
      t: 'e',
      s: 'avl_unit',
      fid: t.demo.fleetId,
      d: { id: before.id, cnm: after.cnm, cneh: after.cneh, lmsg: { t: time }, pos: { t: time, y: 53.91 } },
    });
    expect(heard).toContainEqual([before.id]);

    // The outsider hears its own fleet's unit; had it heard demo-001, that would have come first.
    const own = await fetch(`${base}/anything?id=northwind-1&lat=54.7&lon=25.3&timestamp=${tick()}`);
    expect(own.status).toBe(200);
    await outsiderEvents.next((e) => e.s === 'avl_unit' && e.fid === t.demo.otherFleetId);
    expect(outsiderEvents.received.filter((e) => e.fid === t.demo.fleetId)).toEqual([]);
    managerEvents.close();
    outsiderEvents.close();
  });

  it('answers an unknown device as a refused reading, logs it and stores nothing', async () => {
    const db = t.server.ctx.db.kysely;
    const positions = await db
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const res = await fetch(`${base}/?id=ghost-7&lat=1&lon=2&timestamp=${tick()}`);
    // The same answer as a known unit's refused reading (out of order here).
    const known = await fetch(`${base}/?id=demo-001&lat=1&lon=2&timestamp=1000`);
    expect(res.status).toBe(200);
    expect(known.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ ok: false, reason: 'Reading refused' });
    expect(await known.json()).toEqual(body);
    const log = await db.selectFrom('ingest_log').selectAll().where('device_id', '=', 'ghost-7').execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ unit_id: null, reason: 'Unknown device' });
    expect(JSON.parse(log[0]!.payload)).toMatchObject({ id: 'ghost-7', lat: '1' });
    const after = await db
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(positions?.n));
  });

  it('answers 400 with details to unparsable input', async () => {
    const res = await fetch(`${base}/?id=demo-002&lat=95&lon=2`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 4,
      reason: 'lat must be between -90 and 90',
      details: [{ field: 'lat', message: 'must be between -90 and 90' }],
    });
    expect((await fetch(`${base}/?lat=1&lon=2`)).status).toBe(400);
  });

  it('takes a POST form, on the port and under /api', async () => {
    const before = await unitOf('demo-002');
    const form = (time: number, lat: number) =>
      new URLSearchParams({ deviceid: 'demo-002', timestamp: String(time), lat: String(lat), lon: '27.6' });
    const viaPort = await fetch(`${base}/`, { method: 'POST', body: form(tick(), 53.95) });
    expect(viaPort.status).toBe(200);
    const viaApi = await fetch(`${t.url}/api/ingest/osmand`, { method: 'POST', body: form(tick(), 53.96) });
    expect(viaApi.status).toBe(200);
    expect(await viaApi.json()).toEqual({ ok: true });
    const after = await unitOf('demo-002');
    expect(after.pos).toMatchObject({ y: 53.96, x: 27.6 });
    expect(after.cnm).toBeGreaterThan(before.cnm);
  });

  it('takes query parameters of a POST without a body, as older Traccar Client sends them', async () => {
    const res = await fetch(`${base}/?id=demo-002&lat=53.97&lon=27.6&timestamp=${tick()}`, {
      method: 'POST',
    });
    expect(res.status).toBe(200);
    expect((await unitOf('demo-002')).pos.y).toBe(53.97);
  });

  it('takes the JSON body of newer Traccar Client versions', async () => {
    const before = await unitOf('demo-003');
    const body = (time: number, latitude: number) =>
      JSON.stringify({
        device_id: 'demo-003',
        location: {
          timestamp: new Date(time * 1000).toISOString(),
          coords: { latitude, longitude: 27.5, speed: 10, heading: 90, altitude: 200, accuracy: 4 },
          is_moving: true,
          odometer: Math.round((before.cnm + 3) * 1000),
          battery: { level: 0.5, is_charging: true },
        },
      });
    const headers = { 'content-type': 'application/json' };
    const viaPort = await fetch(`${base}/`, { method: 'POST', headers, body: body(tick(), 53.8) });
    expect(viaPort.status).toBe(200);
    const viaApi = await fetch(`${t.url}/api/ingest/osmand`, {
      method: 'POST',
      headers,
      body: body(tick(), 53.81),
    });
    expect(viaApi.status).toBe(200);
    const after = await unitOf('demo-003');
    expect(after.cnm).toBeCloseTo(before.cnm + 3, 3);
    expect(after.pos).toMatchObject({ y: 53.81, x: 27.5, s: 36, c: 90 });
    expect(after.prms).toMatchObject({ batt: 50, charge: true, motion: true, accuracy: 4 });
  });

  it('takes a flat JSON body and a form sent as plain text', async () => {
    const json = await t.anon.post('/api/ingest/osmand', {
      id: 'demo-003',
      lat: 53.82,
      lon: 27.5,
      timestamp: tick(),
    });
    expect(json.body).toEqual({ ok: true });
    const text = await fetch(`${base}/`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: `id=demo-003&lat=53.83&lon=27.5&timestamp=${tick()}`,
    });
    expect(await text.json()).toEqual({ ok: true });
    expect((await unitOf('demo-003')).pos).toMatchObject({ y: 53.83, t: clock });
    const broken = await fetch(`${base}/`, { method: 'POST', body: '{"id": "demo-003", ' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: number }).error).toBe(4);
  });

  it('accumulates mileage from positions when no odometer is sent', async () => {
    const before = await unitOf('demo-004');
    const legs = [
      [53.9, 27.5],
      [53.95, 27.55],
      [54.0, 27.5],
    ] as const;
    let expected = before.cnm;
    let from = { y: before.pos.y, x: before.pos.x };
    for (const [lat, lon] of legs) {
      const res = await t.anon.get(
        `/api/ingest/osmand?id=demo-004&lat=${lat}&lon=${lon}&timestamp=${tick()}`,
      );
      expect(res.status).toBe(200);
      expected += haversineKm(from.y, from.x, lat, lon);
      from = { y: lat, x: lon };
    }
    expect((await unitOf('demo-004')).cnm).toBeCloseTo(expected, 3);
    const stored = await t.server.ctx.db.kysely
      .selectFrom('positions')
      .select(['lat', 'mileage'])
      .where('unit_id', '=', before.id)
      .orderBy('tm')
      .execute();
    expect(stored.map((p) => p.lat)).toEqual([53.9, 53.95, 54.0]);
  });

  it('accumulates engine hours while the ignition stays on', async () => {
    const before = await unitOf('demo-005');
    const at = (time: number, ignition: boolean) =>
      t.anon.get(`/api/ingest/osmand?id=demo-005&location=53.9,27.5&timestamp=${time}&ignition=${ignition}`);
    const start = tick();
    expect((await at(start, true)).status).toBe(200);
    clock += 180;
    expect((await at(clock, true)).status).toBe(200);
    clock += 1;
    expect((await at(clock, false)).status).toBe(200);
    const after = await unitOf('demo-005');
    expect(after.cneh).toBeCloseTo(before.cneh + 181 / 3600, 3);
  });
});
