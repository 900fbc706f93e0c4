import { TELEMATICS_BATCH_MAX_ROWS } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';
import { Reason } from './rules.js';

describe('POST /api/ingest/batch (DESIGN §3)', () => {
  let t: TestServer;
  let manager: Client;
  let outsider: Client;
  let clock: number;

  const units = async (client: Client, fleetId: number) =>
    new Map<string, any>(
      (await client.get(`/api/fleets/${fleetId}/units`)).body.units.map((u: { uid: string }) => [u.uid, u]),
    );
  const positionsOf = async (unitId: number) =>
    t.server.ctx.db.kysely
      .selectFrom('positions')
      .selectAll()
      .where('unit_id', '=', unitId)
      .orderBy('tm')
      .execute();

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    outsider = await t.login('outsider');
    clock = now();
  });
  afterAll(() => t?.close());

  it('needs a session', async () => {
    const res = await t.anon.post('/api/ingest/batch', { positions: [] });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 1, reason: 'Session is not initialized' });
  });

  it('stores rows in order, each on its own, with per-row results', async () => {
    const before = await units(manager, t.demo.fleetId);
    const a = before.get('demo-012');
    const b = before.get('demo-013');
    const [t1, t2, t3] = [++clock, ++clock, ++clock];
    const res = await manager.post('/api/ingest/batch', {
      positions: [
        { id: 'demo-012', lat: 53.9, lon: 27.5, timestamp: t1, odometer: Math.round((a.cnm + 1) * 1000) },
        { id: 'demo-012', lat: 53.91, lon: 27.5, timestamp: t2, odometer: Math.round((a.cnm + 2) * 1000) },
        { id: 'demo-012', lat: 53.92, lon: 27.5, timestamp: t1, odometer: Math.round((a.cnm + 3) * 1000) },
        { id: 'demo-013', lat: 95, lon: 27.5, timestamp: t3 },
        { id: 'ghost-1', lat: 1, lon: 2, timestamp: t3 },
        { id: 'northwind-1', lat: 54.7, lon: 25.3, timestamp: t3 },
        {
          device_id: 'demo-013',
          location: {
            timestamp: new Date(t3 * 1000).toISOString(),
            coords: { latitude: 53.8, longitude: 27.4 },
          },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { i: 0, ok: true },
      { i: 1, ok: true },
      { i: 2, ok: false, reason: Reason.outOfOrder },
      { i: 3, ok: false, reason: 'lat must be between -90 and 90' },
      // An unknown device and another fleet's device answer alike.
      { i: 4, ok: false, reason: 'Reading refused' },
      { i: 5, ok: false, reason: 'Reading refused' },
      { i: 6, ok: true },
    ]);
    const after = await units(manager, t.demo.fleetId);
    expect(after.get('demo-012').cnm).toBeCloseTo(a.cnm + 2, 3);
    expect(after.get('demo-012').pos).toMatchObject({ t: t2, y: 53.91 });
    expect(after.get('demo-013').pos).toMatchObject({ t: t3, y: 53.8, x: 27.4 });
    expect(after.get('demo-013').cnm).toBeGreaterThan(b.cnm);
    expect((await positionsOf(a.id)).map((p) => p.tm)).toEqual([t1, t2]);

    const northwind = (await units(outsider, t.demo.otherFleetId)).get('northwind-1');
    expect(northwind.pos.t).toBeLessThan(t3);
    // Unknown devices go to the ingest log, refusals of a unit to its meter history (source: import).
    const log = await t.server.ctx.db.kysely.selectFrom('ingest_log').selectAll().orderBy('id').execute();
    expect(log.map((l) => [l.device_id, l.reason])).toEqual([['ghost-1', 'Unknown device']]);
    const refused = await t.server.ctx.db.kysely
      .selectFrom('meter_readings')
      .selectAll()
      .where('status', '=', 'refused')
      .orderBy('id')
      .execute();
    expect(refused.map((l) => [l.device_id, l.reason, l.source, l.mileage])).toEqual([
      ['demo-012', Reason.outOfOrder, 'import', a.cnm + 3],
    ]);
  });

  it('several records of one second: each applied unless its counters go back; an exact repeat dropped', async () => {
    const unit = (await units(manager, t.demo.fleetId)).get('demo-020');
    const at = ++clock;
    const metres = (km: number) => Math.round((unit.cnm + km) * 1000);
    const record = { id: 'demo-020', lat: 53.9, lon: 27.5, timestamp: at, odometer: metres(1) };
    const res = await manager.post('/api/ingest/batch', {
      positions: [
        record,
        record, // a gateway's resend: acknowledged, not stored again
        { ...record, lat: 53.901, odometer: metres(1.2) },
        { ...record, lat: 53.902, odometer: metres(1.1) }, // odometer back within the second
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { i: 0, ok: true },
      { i: 1, ok: true },
      { i: 2, ok: true },
      { i: 3, ok: false, reason: Reason.outOfOrder },
    ]);
    expect((await positionsOf(unit.id)).map((p) => [p.tm, p.lat])).toEqual([
      [at, 53.9],
      [at, 53.901],
    ]);
    const after = (await units(manager, t.demo.fleetId)).get('demo-020');
    expect(after.cnm).toBeCloseTo(unit.cnm + 1.2, 3);
    expect(after.pos).toMatchObject({ t: at, y: 53.901 });
    const refused = await t.server.ctx.db.kysely
      .selectFrom('meter_readings')
      .select('reason')
      .where('unit_id', '=', unit.id)
      .where('status', '=', 'refused')
      .execute();
    expect(refused.map((r) => r.reason)).toEqual([Reason.outOfOrder]);
  });

  it('refuses rows of fleets the actor does not administer', async () => {
    const viewer = await t.login('viewer');
    const time = ++clock;
    const denied = await viewer.post('/api/ingest/batch', {
      positions: [{ id: 'demo-014', lat: 53.9, lon: 27.5, timestamp: time }],
    });
    // Administering no fleet at all, the viewer is refused before the body is read.
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 7, reason: 'Access denied' });

    const cross = await outsider.post('/api/ingest/batch', {
      positions: [
        { id: 'demo-014', lat: 53.9, lon: 27.5, timestamp: time },
        { id: 'northwind-2', lat: 54.7, lon: 25.3, timestamp: time },
      ],
    });
    expect(cross.body.results).toEqual([
      { i: 0, ok: false, reason: 'Reading refused' },
      { i: 1, ok: true },
    ]);
    const demo = (await units(manager, t.demo.fleetId)).get('demo-014');
    expect(demo.pos.t).toBeLessThan(time);
    expect(await positionsOf(demo.id)).toEqual([]);
    expect((await units(outsider, t.demo.otherFleetId)).get('northwind-2').pos).toMatchObject({
      t: time,
      y: 54.7,
    });
  });

  it('lets the fleet admin send', async () => {
    const admin = await t.login('admin');
    const res = await admin.post('/api/ingest/batch', {
      positions: [{ id: 'demo-015', lat: 53.9, lon: 27.5, timestamp: ++clock }],
    });
    expect(res.body.results).toEqual([{ i: 0, ok: true }]);
  });

  it('a reading cannot move its unit, rename it or change its device (mass assignment)', async () => {
    const before = (await units(manager, t.demo.fleetId)).get('demo-018');
    const forged = {
      fid: t.demo.otherFleetId,
      fleet_id: t.demo.otherFleetId,
      account_id: 1,
      nm: 'Hijacked',
      name: 'Hijacked',
      uid: 'hijacked',
      device_id: 'hijacked',
    };
    const res = await manager.post('/api/ingest/batch', {
      positions: [{ id: 'demo-018', lat: 53.9, lon: 27.5, timestamp: ++clock, ...forged }],
    });
    expect(res.body.results).toEqual([{ i: 0, ok: true }]);
    const get = await t.anon.get(
      `/api/ingest/osmand?id=demo-018&lat=53.91&lon=27.5&timestamp=${++clock}&fid=${t.demo.otherFleetId}&nm=Hijacked`,
    );
    expect(get.body).toEqual({ ok: true });
    const after = (await units(manager, t.demo.fleetId)).get('demo-018');
    expect(after).toMatchObject({ id: before.id, nm: before.nm, fid: t.demo.fleetId, uid: 'demo-018' });
    const row = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select(['fleet_id', 'account_id', 'name', 'device_id'])
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ fleet_id: t.demo.fleetId, name: before.nm, device_id: 'demo-018' });
    expect(row.account_id).not.toBe(1);
  });

  it(`takes at most ${TELEMATICS_BATCH_MAX_ROWS} rows`, async () => {
    const row = { id: 'demo-016', lat: 1, lon: 1 };
    const res = await manager.post('/api/ingest/batch', {
      positions: Array(TELEMATICS_BATCH_MAX_ROWS + 1).fill(row),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(4);
  });

  it('stores a full batch', async () => {
    const unit = (await units(manager, t.demo.fleetId)).get('demo-017');
    const start = now() - TELEMATICS_BATCH_MAX_ROWS - 10;
    // A device that was silent since before the batch began (its backlog arrives through a gateway).
    await t.server.ctx.db.kysely
      .updateTable('units')
      .set({ last_time: start - 1 })
      .where('id', '=', unit.id)
      .execute();
    const positions = Array.from({ length: TELEMATICS_BATCH_MAX_ROWS }, (_, k) => ({
      id: 'demo-017',
      lat: 53.9 + k * 0.0001,
      lon: 27.5,
      timestamp: start + k,
      ignition: true,
    }));
    const res = await manager.post('/api/ingest/batch', { positions });
    expect(res.status).toBe(200);
    expect(res.body.results.filter((r: { ok: boolean }) => r.ok)).toHaveLength(TELEMATICS_BATCH_MAX_ROWS);
    expect(await positionsOf(unit.id)).toHaveLength(TELEMATICS_BATCH_MAX_ROWS);
    const after = (await units(manager, t.demo.fleetId)).get('demo-017');
    expect(after.cneh).toBeCloseTo(unit.cneh + (TELEMATICS_BATCH_MAX_ROWS - 1) / 3600, 2);
    expect(after.pos.t).toBe(start + TELEMATICS_BATCH_MAX_ROWS - 1);
  });
});
