import { ServiceFlag } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';
import { servicesFixture } from '../test/services-fixtures.js';

/**
 * Interval baselines follow a device's new counter baseline (PRODUCT.md "Service objects and counters";
 * telematics/baseline-shift.ts): the first odometer (engine hours) of a unit's device, and the first
 * after its device identifier changed, moves the unit's assignments' "last service" values by the same
 * step, so that what remains until the next service stays; the meter history shows the move. Hand
 * corrections and accepted refused readings move no interval baseline.
 */
describe('interval baselines at a new counter baseline', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let admin: Client;

  const HOUR = 3600;
  const at = (offset: number, hours: number) => fx.day(offset) + Math.round(hours * HOUR);
  const send = (params: Record<string, string | number>) =>
    t.anon.get(
      `/api/ingest/osmand?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`,
    );
  const ok = async (params: Record<string, string | number>) =>
    expect((await send({ lat: 53.9, lon: 27.5, ...params })).body).toEqual({ ok: true });
  const odo = (id: string, timestamp: number, km: number) => ok({ id, timestamp, odometer: km * 1000 });
  const hours = (id: string, timestamp: number, h: number) => ok({ id, timestamp, hours: h });
  const meterUrl = (unitId: number) => `/api/fleets/${fx.fleetId}/units/${unitId}/meter`;
  const history = async (unitId: number) => {
    const res = await manager.get(`${meterUrl(unitId)}?from=0`);
    expect(res.status).toBe(200);
    return res.body.entries as Record<string, unknown>[];
  };
  const deviceOf = async (unitId: number) => (await fx.unitRow(unitId)).device_id;
  /** An interval of `every` km (`rule: 'km'`) or engine hours, noticed `notice` ahead, on a unit. */
  const interval = async (unitId: number, rule: 'km' | 'h', every: number, notice: number, last: number) => {
    const { aid, ivid } = await fx.assignment(unitId, {
      lcnm: rule === 'km' ? last : 0,
      lceh: rule === 'h' ? last : 0,
      ltm: now() - 30 * 86_400,
      cnt: 1,
    });
    await fx.db
      .updateTable('intervals')
      .set(
        rule === 'km'
          ? { cnme: 1, cnmd: every, cnmo: notice }
          : { cnme: 0, cnmd: 0, cnehe: 1, cnehd: every, cneho: notice },
      )
      .where('id', '=', ivid)
      .execute();
    return { aid, ivid };
  };
  const services = (aid: number) =>
    fx.db
      .selectFrom('services')
      .select(['id', 'f', 'limit_mileage', 'last_mileage', 'limit_engine_hours', 'last_engine_hours'])
      .where('assignment_id', '=', aid)
      .orderBy('id')
      .execute();
  /** The unit's baseline in the interval's `u` list, as the intervals list shows it. */
  const assigned = async (ivid: number, unitId: number) => {
    const res = await manager.get(`/api/fleets/${fx.fleetId}/intervals`);
    expect(res.status).toBe(200);
    const iv = res.body.intervals.find((i: { id: number }) => i.id === ivid);
    return iv.u.find((u: { id: number; t: string }) => u.t === 'u' && u.id === unitId) as {
      lcnm: number;
      lceh: number;
    };
  };

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('keeps the distance to the next service when the tracker reports the true odometer, and again after a device change', async () => {
    // The unit counted 412,300 km from positions; its oil (15,000 km) was last done at 405,000.
    const uid = await fx.unit(412_300, 5000);
    const device = await deviceOf(uid);
    const { aid, ivid } = await interval(uid, 'km', 15_000, 500, 405_000);
    await ok({ id: device, timestamp: at(-6, 8) });

    // The tracker's real odometer: a new baseline, 387,700 km above; 7,700 km remain as before.
    await odo(device, at(-5, 8), 800_000);
    expect((await fx.unitRow(uid)).mileage).toBe(800_000);
    expect((await fx.assignmentRow(aid)).lcnm).toBe(792_700);
    expect((await assigned(ivid, uid)).lcnm).toBe(792_700);
    expect(await services(aid)).toEqual([]);
    expect((await history(uid))[0]).toMatchObject({
      st: 'baseline',
      cnm: 800_000,
      old_cnm: 412_300,
      shift_cnm: 387_700,
      shift_cneh: null,
    });

    // Driving on: nothing due at 1,900 km left, a Due service at 400 km left (notice 500 km).
    await odo(device, at(-4, 8), 802_900);
    await odo(device, at(-3, 8), 805_800);
    expect(await services(aid)).toEqual([]);
    await odo(device, at(-2, 8), 807_300);
    const due = await services(aid);
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ limit_mileage: 807_700, last_mileage: 792_700 });
    expect(due[0]!.f & ServiceFlag.overdue).toBe(0);
    // 300 km past the limit: overdue.
    await odo(device, at(-1, 8), 808_000);
    expect((await services(aid))[0]!.f & ServiceFlag.overdue).toBe(ServiceFlag.overdue);
    // A normal reading is no baseline: the assignment stays where it was.
    expect((await fx.assignmentRow(aid)).lcnm).toBe(792_700);

    // A new tracker with another clock: its first odometer is a new baseline, and the baselines move
    // again (by 1,200,000 − 808,000). The open service is the same one, still overdue by 300 km.
    const changed = await admin.put(`/api/fleets/${fx.fleetId}/units/${uid}/device`, { uid: `${device}-b` });
    expect(changed.status).toBe(200);
    await odo(`${device}-b`, at(-1, 10), 1_200_000);
    expect((await fx.assignmentRow(aid)).lcnm).toBe(1_184_700);
    const after = await services(aid);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: due[0]!.id, limit_mileage: 1_199_700, last_mileage: 1_184_700 });
    expect(after[0]!.f & ServiceFlag.overdue).toBe(ServiceFlag.overdue);
    expect(after[0]!.f & (ServiceFlag.closed | ServiceFlag.rejected)).toBe(0);
    expect((await history(uid))[0]).toMatchObject({ st: 'baseline', old_cnm: 808_000, shift_cnm: 392_000 });
  });

  it('moves engine-hours baselines the same way', async () => {
    const uid = await fx.unit(1000, 5000);
    const device = await deviceOf(uid);
    const { aid } = await interval(uid, 'h', 250, 10, 4900);
    await hours(device, at(-12, 8), 20_000);
    expect((await fx.assignmentRow(aid)).lceh).toBe(19_900);
    expect((await fx.assignmentRow(aid)).lcnm).toBe(0);
    expect((await history(uid))[0]).toMatchObject({ st: 'baseline', shift_cnm: null, shift_cneh: 15_000 });
    expect(await services(aid)).toEqual([]);
    // 145 hours run later: 5 hours left, inside the 10 hours' notice.
    await hours(device, at(-1, 8), 20_145);
    const due = await services(aid);
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ limit_engine_hours: 20_150, last_engine_hours: 19_900 });
  });

  it('moves nothing when the first odometer looks driven, or the unit had no counter before', async () => {
    const near = await fx.unit(50_000, 10);
    const a = await interval(near, 'km', 15_000, 500, 45_000);
    await odo(await deviceOf(near), at(-1, 8), 50_800);
    expect((await fx.assignmentRow(a.aid)).lcnm).toBe(45_000);
    expect((await history(near))[0]).toMatchObject({ st: 'baseline', shift_cnm: null });

    const blank = await fx.unit(0, 0);
    const b = await interval(blank, 'km', 15_000, 500, 0);
    await odo(await deviceOf(blank), at(-1, 8), 300_000);
    expect((await fx.assignmentRow(b.aid)).lcnm).toBe(0);
    expect((await history(blank))[0]).toMatchObject({ st: 'baseline', shift_cnm: null });
  });

  it('moves no interval baseline for a hand correction or an accepted refused reading', async () => {
    const uid = await fx.unit(100_000, 10);
    const device = await deviceOf(uid);
    const { aid } = await interval(uid, 'km', 15_000, 500, 95_000);
    await odo(device, at(-1, 8), 100_100);
    expect((await fx.assignmentRow(aid)).lcnm).toBe(95_000);

    const corrected = await manager.post(meterUrl(uid), { cnm: 300_000 });
    expect(corrected.status).toBe(200);
    expect((await fx.unitRow(uid)).mileage).toBe(300_000);
    expect((await fx.assignmentRow(aid)).lcnm).toBe(95_000);

    expect(
      (await send({ id: device, lat: 53.9, lon: 27.5, timestamp: at(-1, 9), odometer: 900_000_000 })).body,
    ).toEqual({
      ok: false,
      reason: 'Reading refused',
    });
    const refused = (await history(uid)).find((e) => e.st === 'refused')!;
    const accepted = await manager.post(`${meterUrl(uid)}/${refused.id}/accept`, {});
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ cnm: 900_000, applied: true });
    expect((await fx.assignmentRow(aid)).lcnm).toBe(95_000);
    // The engine ran on the counters as they are: the interval is overdue.
    const open = await services(aid);
    expect(open).toHaveLength(1);
    expect(open[0]!.f & ServiceFlag.overdue).toBe(ServiceFlag.overdue);
  });
});
