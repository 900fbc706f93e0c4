import { METER_REFUSED_PER_UNIT_MAX, METER_RETENTION_DAYS } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * Counters you can trust (PRODUCT.md "Service objects and counters"): a device's first
 * reading is a baseline, readings keep their milliseconds, refused readings are kept with the reason in
 * the unit's meter history, and a manager accepts them or enters corrections.
 */
describe('meter history and baselines', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let viewer: Client;
  let outsider: Client;
  let managerId: number;

  const HOUR = 3600;
  const at = (offset: number, hours: number) => fx.day(offset) + Math.round(hours * HOUR);
  const send = (params: Record<string, string | number>) =>
    t.anon.get(
      `/api/ingest/osmand?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`,
    );
  const odo = (device: string, timestamp: number, km: number, extra: Record<string, number> = {}) =>
    send({ id: device, lat: 53.9, lon: 27.5, timestamp, odometer: Math.round(km * 1000), ...extra });
  const meterUrl = (unitId: number) => `/api/fleets/${fx.fleetId}/units/${unitId}/meter`;
  const history = async (unitId: number, client = manager) => {
    const res = await client.get(`${meterUrl(unitId)}?from=0`);
    expect(res.status).toBe(200);
    return res.body.entries as Record<string, any>[];
  };
  const unitWire = async (unitId: number) =>
    (await manager.get(`/api/fleets/${fx.fleetId}/units`)).body.units.find(
      (u: { id: number }) => u.id === unitId,
    );
  const deviceOf = async (unitId: number) => (await fx.unitRow(unitId)).device_id;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
    managerId = (
      await fx.db.selectFrom('users').select('id').where('name', '=', 'manager').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t?.close());

  it('takes the real odometer of a unit counted from positions as its baseline, not a jump', async () => {
    const uid = await fx.unit(412_300, 5000);
    const device = await deviceOf(uid);
    // Day -2: positions only (the unit's counter history starts at 412,300 km).
    expect((await send({ id: device, lat: 53.9, lon: 27.5, timestamp: at(-2, 10) })).body).toEqual({
      ok: true,
    });
    // Day -1: the tracker's real odometer, then 100 km driven.
    expect((await odo(device, at(-1, 8), 98_000)).body).toEqual({ ok: true });
    expect((await odo(device, at(-1, 12), 98_100)).body).toEqual({ ok: true });
    const unit = await unitWire(uid);
    expect(unit.cnm).toBe(98_100);
    // Actual = total − base at joining + pulled: the baseline step is no distance since joining.
    expect(unit.acnm).toBe(100);
    // The statistics count the 100 km driven on day -1, not the baseline step.
    const stats = await manager.get(
      `/api/fleets/${fx.fleetId}/units/${uid}/statistics?from=${fx.iso(-1)}&to=${fx.iso(-1)}`,
    );
    expect(stats.status).toBe(200);
    expect(stats.body.mileage).toBe(100);
    const both = await manager.get(
      `/api/fleets/${fx.fleetId}/units/${uid}/statistics?from=${fx.iso(-2)}&to=${fx.iso(-1)}`,
    );
    expect(both.body.mileage).toBe(100);

    // From the baseline on, the jump rules apply: 12,000 km more within hours is refused and kept.
    const jump = await odo(device, at(-1, 13), 110_100);
    expect(jump.body).toEqual({ ok: false, reason: 'Reading refused' });
    expect((await unitWire(uid)).cnm).toBe(98_100);

    const entries = await history(uid);
    expect(entries[0]).toMatchObject({
      kind: 'reading',
      tm: at(-1, 13) * 1000,
      src: 'osmand',
      cnm: 110_100,
      st: 'refused',
      reason: 'Implausible mileage jump',
      by: null,
    });
    expect(entries.find((e) => e.st === 'baseline')).toMatchObject({
      tm: at(-1, 8) * 1000,
      cnm: 98_000,
      old_cnm: 412_300,
      src: 'osmand',
    });
    // The day's first reading of day -2 is kept as that day's sample.
    expect(entries.at(-1)).toMatchObject({ tm: at(-2, 10) * 1000, st: 'accepted', cnm: 412_300 });
  });

  it('takes the first odometer after a device change as a new baseline', async () => {
    const uid = await fx.unit(20_000, 500);
    const device = await deviceOf(uid);
    const t0 = now() - 600;
    expect((await odo(device, t0, 20_010)).body).toEqual({ ok: true });
    // The old tracker's odometer going backwards is refused...
    expect((await odo(device, t0 + 10, 5_000)).body).toEqual({ ok: false, reason: 'Reading refused' });
    const admin = await t.login('admin');
    const changed = await admin.put(`/api/fleets/${fx.fleetId}/units/${uid}/device`, {
      uid: `${device}-new`,
    });
    expect(changed.status).toBe(200);
    // ...the new tracker's first odometer sets the counter.
    expect((await odo(`${device}-new`, t0 + 20, 5_000)).body).toEqual({ ok: true });
    expect((await unitWire(uid)).cnm).toBe(5_000);
    expect((await odo(`${device}-new`, t0 + 30, 4_000)).body).toEqual({
      ok: false,
      reason: 'Reading refused',
    });
    const entries = await history(uid);
    expect(entries.map((e) => [e.st, e.cnm, e.reason])).toEqual([
      ['refused', 4_000, 'Odometer went backwards'],
      ['baseline', 5_000, null],
      ['refused', 5_000, 'Odometer went backwards'],
      ['baseline', 20_010, null],
    ]);
  });

  it('keeps readings to the millisecond: two in one second are in order', async () => {
    const uid = await fx.unit(1000, 10);
    const device = await deviceOf(uid);
    const second = (now() - 60) * 1000;
    expect((await odo(device, second + 100, 1000)).body).toEqual({ ok: true });
    expect((await odo(device, second + 600, 1000.2)).body).toEqual({ ok: true });
    expect((await fx.unitRow(uid)).last_ms).toBe(second + 600);
    expect((await unitWire(uid)).cnm).toBe(1000.2);
    // The same millisecond again with the odometer back is out of order, and listed with its milliseconds.
    expect((await odo(device, second + 600, 1000.1)).body).toEqual({ ok: false, reason: 'Reading refused' });
    expect((await history(uid))[0]).toMatchObject({
      tm: second + 600,
      st: 'refused',
      reason: 'Reading is out of order',
    });
  });

  it('lets a manager accept a refused reading: it becomes the counter and the engine runs', async () => {
    const uid = await fx.unit(100, 10);
    const device = await deviceOf(uid);
    const { aid, ivid } = await fx.assignment(uid, { lcnm: 0, lceh: 0, ltm: now() - 30 * 86_400, cnt: 0 });
    await fx.db.updateTable('intervals').set({ cnmd: 1000, cnmo: 100 }).where('id', '=', ivid).execute();
    const t0 = now() - 300;
    expect((await odo(device, t0, 150)).body).toEqual({ ok: true });
    expect((await odo(device, t0 + 60, 4000)).body).toEqual({ ok: false, reason: 'Reading refused' });
    const openServices = () =>
      fx.db.selectFrom('services').select(['id', 'f']).where('assignment_id', '=', aid).execute();
    expect(await openServices()).toEqual([]);
    const refused = (await history(uid)).find((e) => e.st === 'refused')!;
    expect(refused).toMatchObject({ cnm: 4000, reason: 'Implausible mileage jump' });

    // Viewers read the history but may not change it; other fleets' members see nothing.
    expect((await history(uid, viewer)).map((e) => e.id)).toContain(refused.id);
    const denied = await viewer.post(`${meterUrl(uid)}/${refused.id}/accept`, {});
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 7, reason: 'Access denied' });
    expect((await outsider.get(meterUrl(uid))).status).toBe(403);

    const res = await manager.post(`${meterUrl(uid)}/${refused.id}/accept`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cnm: 4000, applied: true });
    expect(res.body.entries[0]).toMatchObject({
      id: refused.id,
      st: 'accepted',
      reason: 'Implausible mileage jump',
      by: { id: managerId },
    });
    expect((await unitWire(uid)).cnm).toBe(4000);
    // The status engine ran on the new counter: the 1,000 km interval is overdue.
    const services = await openServices();
    expect(services).toHaveLength(1);
    expect(services[0]!.f & 4).toBe(4);
    // Twice is a conflict.
    expect((await manager.post(`${meterUrl(uid)}/${refused.id}/accept`, {})).status).toBe(409);

    // An older refused reading is only marked accepted: the counter stays.
    expect((await odo(device, t0 - 30, 4100)).body).toEqual({ ok: false, reason: 'Reading refused' });
    const older = (await history(uid)).find((e) => e.st === 'refused')!;
    expect(older).toMatchObject({ reason: 'Reading is out of order', cnm: 4100 });
    const marked = await manager.post(`${meterUrl(uid)}/${older.id}/accept`, {});
    expect(marked.body).toMatchObject({ cnm: 4000, applied: false });
    expect((await unitWire(uid)).cnm).toBe(4000);
  });

  it('lists hand corrections with who and when', async () => {
    const uid = await fx.unit(700, 70);
    const before = now();
    const denied = await viewer.post(meterUrl(uid), { cnm: 800 });
    expect(denied.status).toBe(403);
    const res = await manager.post(meterUrl(uid), { cnm: 800, cneh: 75.5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cnm: 800, cneh: 75.5, applied: true });
    expect(res.body.entries).toHaveLength(2);
    const entries = await history(uid, viewer);
    expect(entries.map((e) => [e.kind, e.src, e.cnm, e.old_cnm, e.cneh, e.old_cneh])).toEqual([
      ['correction', 'hand', null, null, 75.5, 70],
      ['correction', 'hand', 800, 700, null, null],
    ]);
    expect(entries[0]!.by).toMatchObject({ id: managerId, nm: expect.any(String) });
    expect(entries[0]!.at).toBeGreaterThanOrEqual(before);
    // A correction is no distance driven (statistics), and the mass of a body is checked.
    expect((await manager.post(meterUrl(uid), {})).status).toBe(400);
    expect((await manager.post(meterUrl(uid), { cnm: 5, fid: 1 })).status).toBe(400);
  });

  it('keeps the history bounded: refused readings per unit, and a retention', async () => {
    const uid = await fx.unit(300, 3);
    const device = await deviceOf(uid);
    const t0 = now() - 600;
    expect((await odo(device, t0, 300)).body).toEqual({ ok: true });
    const row = (tmMs: number, status: string) => ({
      fleet_id: fx.fleetId,
      unit_id: uid,
      tm_ms: tmMs,
      received_at: Math.floor(tmMs / 1000),
      source: 'device',
      status,
      mileage: 1,
      engine_hours: null,
      old_mileage: null,
      old_engine_hours: null,
      reason: 'seeded',
      payload: '{}',
      device_id: device,
      accepted_by: null,
      accepted_at: null,
    });
    const recent = (t0 - 3600) * 1000;
    const seeded = Array.from({ length: METER_REFUSED_PER_UNIT_MAX }, (_, k) => row(recent + k, 'refused'));
    for (let i = 0; i < seeded.length; i += 200)
      await fx.db
        .insertInto('meter_readings')
        .values(seeded.slice(i, i + 200))
        .execute();
    const old = (now() - (METER_RETENTION_DAYS + 1) * 86_400) * 1000;
    await fx.db.insertInto('meter_readings').values(row(old, 'accepted')).execute();
    const rows = () =>
      fx.db
        .selectFrom('meter_readings')
        .select(['id', 'tm_ms', 'status'])
        .where('unit_id', '=', uid)
        .orderBy('id')
        .execute();
    const first = (await rows()).find((r) => r.status === 'refused')!;

    // One more refusal: the oldest refused reading goes, and so does the reading past the retention.
    expect((await odo(device, t0 + 10, 100)).body).toEqual({ ok: false, reason: 'Reading refused' });
    const after = await rows();
    const refused = after.filter((r) => r.status === 'refused');
    expect(refused).toHaveLength(METER_REFUSED_PER_UNIT_MAX);
    expect(refused.map((r) => r.id)).not.toContain(first.id);
    expect(refused.at(-1)).toMatchObject({ tm_ms: (t0 + 10) * 1000 });
    expect(after.filter((r) => Number(r.tm_ms) === old)).toEqual([]);
    // The baseline stays.
    expect(after.filter((r) => r.status === 'baseline')).toHaveLength(1);
  });

  it('keeps other fleets’ units invisible', async () => {
    const foreign = await fx.db
      .selectFrom('units')
      .select('id')
      .where('fleet_id', '=', t.demo.otherFleetId)
      .executeTakeFirstOrThrow();
    const res = await manager.get(meterUrl(foreign.id));
    expect(res.status).toBe(404);
    expect((await manager.post(meterUrl(foreign.id), { cnm: 1 })).status).toBe(404);
  });
});
