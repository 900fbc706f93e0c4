import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { EventsClient } from '../test/events-client.js';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';
import { ingestReading } from './ingest.js';
import type { Reading } from './reading.js';
import { Reason } from './rules.js';
import { READING_REFUSED } from './service.js';

/**
 * Refused readings (PRODUCT.md "Service objects and counters"): kept in the unit's meter history with the
 * reason, counters kept; the device is told only that the reading was refused.
 */
describe('ingestion rules over HTTP', () => {
  let t: TestServer;
  let manager: Client;
  let clock: number;
  const heard: number[][] = [];

  const unitOf = async (deviceId: string) => {
    const res = await manager.get(`/api/fleets/${t.demo.fleetId}/units`);
    return res.body.units.find((u: { uid: string }) => u.uid === deviceId);
  };
  const send = (params: Record<string, string | number>) =>
    t.anon.get(
      `/api/ingest/osmand?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`,
    );
  const logOf = (unitId: number) =>
    t.server.ctx.db.kysely
      .selectFrom('meter_readings')
      .selectAll()
      .where('unit_id', '=', unitId)
      .where('status', '=', 'refused')
      .orderBy('id')
      .execute();
  /** The device's first odometer and engine hours: the baseline the rules measure from. */
  const baseline = async (deviceId: string) => {
    const unit = await unitOf(deviceId);
    const res = await send({
      id: deviceId,
      lat: unit.pos?.y ?? 53.9,
      lon: unit.pos?.x ?? 27.5,
      timestamp: ++clock,
      odometer: Math.round(unit.cnm * 1000),
      hours: unit.cneh,
    });
    expect(res.body).toEqual({ ok: true });
    return unitOf(deviceId);
  };

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    clock = now();
    t.server.ctx.countersListeners.push(async (ids) => {
      heard.push(ids);
    });
  });
  afterAll(() => t?.close());

  const positionCount = async (unitId: number) =>
    (
      await t.server.ctx.db.kysely
        .selectFrom('positions')
        .select('id')
        .where('unit_id', '=', unitId)
        .execute()
    ).length;

  /** Sends a refused reading and checks reply, log row, stored positions and the untouched unit. */
  async function expectRefused(deviceId: string, params: Record<string, string | number>, reason: string) {
    const before = await unitOf(deviceId);
    const positionsBefore = await positionCount(before.id);
    const heardBefore = heard.length;
    const res = await send({ id: deviceId, ...params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: false, reason: READING_REFUSED });
    expect(await unitOf(deviceId)).toEqual(before);
    const log = await logOf(before.id);
    expect(log.at(-1)).toMatchObject({
      device_id: deviceId,
      unit_id: before.id,
      reason,
      fleet_id: t.demo.fleetId,
    });
    expect(JSON.parse(log.at(-1)!.payload ?? 'null')).toMatchObject({ id: deviceId });
    expect(await positionCount(before.id)).toBe(positionsBefore);
    expect(heard.length).toBe(heardBefore);
  }

  it('refuses an odometer that goes backwards', async () => {
    const unit = await baseline('demo-006');
    await expectRefused(
      'demo-006',
      { lat: 53.9, lon: 27.5, timestamp: ++clock, odometer: Math.round((unit.cnm - 5) * 1000) },
      Reason.odometerBackwards,
    );
  });

  it('refuses a reading out of order', async () => {
    const ok = await send({ id: 'demo-007', lat: 53.9, lon: 27.5, timestamp: ++clock + 10 });
    expect(ok.body).toEqual({ ok: true });
    await expectRefused('demo-007', { lat: 53.91, lon: 27.5, timestamp: clock + 5 }, Reason.outOfOrder);
  });

  it('applies a reading with the time of the last one; drops an exact repeat; refuses counters going back', async () => {
    // Trackers send several records per second (Teltonika): an equal time alone is no reason to refuse.
    const unit = await baseline('demo-019');
    const events = await EventsClient.connect(t.url, manager.ssid);
    try {
      const at = ++clock;
      const metres = (km: number) => Math.round((unit.cnm + km) * 1000);
      const first = { id: 'demo-019', lat: 53.9, lon: 27.5, timestamp: at, odometer: metres(1) };
      expect((await send(first)).body).toEqual({ ok: true });
      const stored = await unitOf('demo-019');
      const positions = await positionCount(unit.id);
      const heardBefore = heard.length;

      // The same record again (a resend): acknowledged, and nothing stored or told.
      expect((await send(first)).body).toEqual({ ok: true });
      expect(await positionCount(unit.id)).toBe(positions);
      expect(await unitOf('demo-019')).toEqual(stored);

      // Another record of the same second, a little further on: applied.
      expect((await send({ ...first, lat: 53.901, odometer: metres(1.1) })).body).toEqual({ ok: true });
      expect(await positionCount(unit.id)).toBe(positions + 1);
      const moved = await unitOf('demo-019');
      expect(moved.cnm).toBeCloseTo(unit.cnm + 1.1, 3);
      expect(moved.pos).toMatchObject({ t: at, y: 53.901 });
      expect(heard.slice(heardBefore)).toEqual([[unit.id]]);
      // Unit messages arrive in order: the repeat made none, only the first and the applied record.
      await events.next((e) => e.t === 'e' && (e.d as { id: number; pos?: { y: number } }).pos?.y === 53.901);
      const messages = events.received.filter((e) => e.t === 'e' && (e.d as { id: number }).id === unit.id);
      expect(messages.map((e) => (e.d as { pos: { y: number } }).pos.y)).toEqual([53.9, 53.901]);

      // A record of that second whose odometer went back: still refused as out of order.
      await expectRefused(
        'demo-019',
        { lat: 53.902, lon: 27.5, timestamp: at, odometer: metres(1.05) },
        Reason.outOfOrder,
      );
    } finally {
      events.close();
    }
  });

  it('refuses a reading from the future', async () => {
    await expectRefused('demo-008', { lat: 53.9, lon: 27.5, timestamp: now() + 3600 }, Reason.future);
  });

  it('refuses implausible jumps of the odometer and of the position', async () => {
    const unit = await baseline('demo-009');
    const jump = Math.round((unit.cnm + 3500) * 1000);
    await expectRefused(
      'demo-009',
      { lat: 53.9, lon: 27.5, timestamp: ++clock, odometer: jump },
      Reason.mileageJump,
    );
    await expectRefused('demo-009', { lat: 40.7, lon: -74, timestamp: ++clock }, Reason.mileageJump);
  });

  it('refuses engine hours that go backwards', async () => {
    const unit = await baseline('demo-010');
    await expectRefused(
      'demo-010',
      { lat: 53.9, lon: 27.5, timestamp: ++clock, hours: unit.cneh - 1 },
      Reason.hoursBackwards,
    );
  });

  it('stores the message after a refused one and tells the counters listeners', async () => {
    const unit = await unitOf('demo-006');
    const res = await send({
      id: 'demo-006',
      lat: 53.9,
      lon: 27.5,
      timestamp: ++clock,
      odometer: Math.round((unit.cnm + 1) * 1000),
    });
    expect(res.body).toEqual({ ok: true });
    expect((await unitOf('demo-006')).cnm).toBeCloseTo(unit.cnm + 1, 3);
    expect(heard.at(-1)).toEqual([unit.id]);
  });

  it('decides readings that arrive together one by one, in arrival order', async () => {
    const unit = await baseline('demo-018');
    const at = (time: number, over: Partial<Reading> = {}): Reading => ({
      deviceId: 'demo-018',
      time,
      lat: 53.9,
      lon: 27.5,
      speed: null,
      course: null,
      altitude: null,
      ignition: null,
      odometerKm: null,
      hours: null,
      params: {},
      ...over,
    });
    const start = ++clock;
    clock += 3;
    const ctx = t.server.ctx;
    const outcomes = await Promise.allSettled([
      ingestReading(ctx, at(start)),
      ingestReading(ctx, at(start + 2, { odometerKm: unit.cnm - 10 })),
      // A reading that cannot even be logged fails alone; the others of its group are still stored.
      ingestReading(ctx, at(start + 2, { deviceId: 'ghost-9', raw: { n: 1n } })),
      ingestReading(ctx, at(start + 2, { lat: 53.91 })),
      ingestReading(ctx, at(start + 1)),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.status : 'failed'))).toEqual([
      'accepted',
      'rejected',
      'failed',
      'accepted',
      'rejected',
    ]);
    expect((await unitOf('demo-018')).pos).toMatchObject({ t: start + 2, y: 53.91 });
    expect((await logOf(unit.id)).map((l) => l.reason)).toEqual([
      Reason.odometerBackwards,
      Reason.outOfOrder,
    ]);
  });

  it('does not call the counters listeners when a message moves nothing', async () => {
    const unit = await unitOf('demo-011');
    const heardBefore = heard.length;
    const res = await send({ id: 'demo-011', lat: unit.pos.y, lon: unit.pos.x, timestamp: ++clock });
    expect(res.body).toEqual({ ok: true });
    expect((await unitOf('demo-011')).lmsg.t).toBe(clock);
    expect(heard.length).toBe(heardBefore);
  });
});
