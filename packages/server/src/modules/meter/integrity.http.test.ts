import { MeterReason } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../../context.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * Meter integrity (docs/product.md "Meter integrity"): every reading keeps its source, a manager voids
 * and restores readings with the counters following, the counter rules void readings automatically, a
 * reading is recorded by hand on the unit page, and "meter replaced" starts a new scale.
 */
describe('meter integrity', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let viewer: Client;
  let outsider: Client;

  const meterUrl = (unitId: number) => `/api/fleets/${fx.fleetId}/units/${unitId}/meter`;
  const history = async (unitId: number) => {
    const res = await manager.get(`${meterUrl(unitId)}?from=0`);
    expect(res.status).toBe(200);
    return res.body.entries as Record<string, any>[];
  };
  const record = (unitId: number, body: Record<string, number>, client = manager) =>
    client.post(`${meterUrl(unitId)}/readings`, body);
  const unitWire = async (unitId: number) =>
    (await manager.get(`/api/fleets/${fx.fleetId}/units`)).body.units.find(
      (u: { id: number }) => u.id === unitId,
    );
  const deviceOf = async (unitId: number) => (await fx.unitRow(unitId)).device_id as string;
  const sourceOf = async (unitId: number) =>
    (await fx.db.selectFrom('meter_readings').select('source').where('unit_id', '=', unitId).execute()).map(
      (r) => r.source,
    );

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
  });
  afterAll(() => t?.close());

  it('names the source of each entry point: OsmAnd, Traccar, import and manual', async () => {
    const future = now() + 3 * DAY;
    const osmand = await fx.unit();
    await t.anon.get(`/api/ingest/osmand?id=${await deviceOf(osmand)}&lat=53.9&lon=27.5&timestamp=${future}`);
    expect(await sourceOf(osmand)).toEqual(['osmand']);

    const traccar = await fx.unit();
    const fix = new Date(future * 1000).toISOString();
    const forwarded = await t.anon.post('/api/ingest/traccar', {
      position: { deviceTime: fix, fixTime: fix, latitude: 53.9, longitude: 27.5, attributes: {} },
      device: { uniqueId: await deviceOf(traccar) },
    });
    expect(forwarded.status).toBe(200);
    expect(await sourceOf(traccar)).toEqual(['traccar']);

    const imported = await fx.unit();
    const admin = await t.login('admin');
    const res = await admin.post('/api/ingest/batch', {
      positions: [{ id: await deviceOf(imported), lat: 53.9, lon: 27.5, timestamp: future }],
    });
    expect(res.status).toBe(200);
    expect(await sourceOf(imported)).toEqual(['import']);

    const manual = await fx.unit();
    expect((await record(manual, { cnm: 1200 })).status).toBe(200);
    expect(await sourceOf(manual)).toEqual(['manual']);
    const [entry] = await history(manual);
    expect(entry).toMatchObject({ src: 'manual', st: 'accepted', cnm: 1200, voided: null });
    expect(entry!.by.nm).toBeTruthy();
  });

  it('takes the mileage entered with a fuel filling as a reading of source fuel', async () => {
    const uid = await fx.unit(30_000, 0);
    const fuel = (body: Record<string, unknown>) =>
      manager.post(`/api/fleets/${fx.fleetId}/fuel-fillings`, { uid, volume: 40, price: 1.5, ...body });
    const filled = await fuel({ mileage: 30_250 });
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    expect((await unitWire(uid)).cnm).toBe(30_250);
    expect((await history(uid))[0]).toMatchObject({ src: 'fuel', cnm: 30_250, voided: null });
    // Without a mileage the filling takes the unit's counter: no reading of its own.
    expect((await fuel({})).status).toBe(200);
    expect((await history(uid)).filter((e) => e.src === 'fuel')).toHaveLength(1);
    // A lower mileage is kept, voided automatically; the counter stays.
    expect((await fuel({ mileage: 29_000 })).status).toBe(200);
    expect((await history(uid))[0]).toMatchObject({
      src: 'fuel',
      cnm: 29_000,
      voided: { reason: MeterReason.outOfSequence, auto: true },
    });
    expect((await unitWire(uid)).cnm).toBe(30_250);
  });

  it('records a manual reading through the counter rules; the status engine sees the counters', async () => {
    const uid = await fx.unit(5000, 300);
    const { aid } = await fx.assignment(uid, { lcnm: 0, lceh: 0, ltm: now() - 30 * DAY, cnt: 1 });
    const res = await record(uid, { cnm: 5250, cneh: 305, tm: now() - 60 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cnm: 5250, cneh: 305, applied: true });
    expect(await unitWire(uid)).toMatchObject({ cnm: 5250, cneh: 305 });
    expect((await fx.assignmentRow(aid)).lcnm).toBe(0);
    // In the future: refused on the time field.
    const future = await record(uid, { cnm: 5300, tm: now() + DAY });
    expect(future.status).toBe(400);
    expect(future.body.details).toEqual([{ field: 'tm', message: MeterReason.future }]);
    // Neither counter: refused by the schema. A viewer may not record.
    expect((await record(uid, {})).status).toBe(400);
    expect((await record(uid, { cnm: 5300 }, viewer)).status).toBe(403);
  });

  it('voids a reading with a reason and restores it; the counter and the interval remaining follow', async () => {
    const uid = await fx.unit(10_000, 500);
    // An interval of 15,000 km, last serviced at 0 km: remaining = 15,000 − counter.
    const { aid } = await fx.assignment(uid, { lcnm: 0, lceh: 0, ltm: now() - 30 * DAY, cnt: 1 });
    await fx.db
      .updateTable('intervals')
      .set({ cnmd: 15_000, cnmo: 500 })
      .where('id', '=', (await fx.assignmentRow(aid)).interval_id)
      .execute();
    expect((await record(uid, { cnm: 10_100, tm: now() - 2 * DAY })).status).toBe(200);
    const second = await record(uid, { cnm: 14_700, tm: now() - 60 });
    expect(second.body).toMatchObject({ cnm: 14_700, applied: true });
    const readingId = second.body.entries[0].id as number;
    // At 14,700 km the interval is within its 500 km notice: the engine opens its service.
    const open = () =>
      fx.db.selectFrom('services').select(['id', 'f']).where('assignment_id', '=', aid).execute();
    expect((await open()).length).toBe(1);

    const voided = await manager.post(`${meterUrl(uid)}/${readingId}/void`, {
      reason: 'Typo: 4,700 not 14,700',
    });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ cnm: 10_100, applied: true });
    expect(voided.body.entries[0]).toMatchObject({
      id: readingId,
      st: 'accepted',
      voided: { reason: 'Typo: 4,700 not 14,700', auto: false, by: { nm: expect.any(String) } },
    });
    expect((await unitWire(uid)).cnm).toBe(10_100);
    // The history shows both readings, the voided one with its reason.
    const entries = await history(uid);
    expect(entries.filter((e) => e.kind === 'reading').map((e) => [e.cnm, e.voided?.reason ?? null])).toEqual(
      [
        [14_700, 'Typo: 4,700 not 14,700'],
        [10_100, null],
      ],
    );
    // Voiding twice, or restoring a valid reading: refused.
    expect((await manager.post(`${meterUrl(uid)}/${readingId}/void`, { reason: 'again' })).status).toBe(409);
    const older = entries.find((e) => e.cnm === 10_100)!.id;
    expect((await manager.post(`${meterUrl(uid)}/${older}/restore`, {})).status).toBe(409);
    // A reason is required.
    expect((await manager.post(`${meterUrl(uid)}/${older}/void`, { reason: ' ' })).status).toBe(400);

    const restored = await manager.post(`${meterUrl(uid)}/${readingId}/restore`, {});
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ cnm: 14_700, applied: true });
    expect(restored.body.entries[0].voided).toBeNull();
    expect((await unitWire(uid)).cnm).toBe(14_700);

    // Voiding an older reading leaves the counter where the newer one put it.
    const old = await manager.post(`${meterUrl(uid)}/${older}/void`, { reason: 'Wrong unit' });
    expect(old.body).toMatchObject({ cnm: 14_700, applied: false });
  });

  it('lets no one else void: a viewer, another fleet, a reading of another unit', async () => {
    const uid = await fx.unit();
    const other = await fx.unit();
    const res = await record(uid, { cnm: 1100 });
    const id = res.body.entries[0].id as number;
    expect((await viewer.post(`${meterUrl(uid)}/${id}/void`, { reason: 'x' })).status).toBe(403);
    expect((await outsider.post(`${meterUrl(uid)}/${id}/void`, { reason: 'x' })).status).toBe(403);
    expect((await outsider.post(`${meterUrl(uid)}/${id}/restore`, {})).status).toBe(403);
    expect((await manager.post(`${meterUrl(other)}/${id}/void`, { reason: 'x' })).status).toBe(404);
    expect((await history(uid))[0]!.voided).toBeNull();
  });

  it('voids automatically: out of sequence, over the daily distance limit, hours faster than time', async () => {
    const uid = await fx.unit(20_000, 1000);
    expect((await record(uid, { cnm: 20_100, cneh: 1002, tm: now() - DAY })).body.applied).toBe(true);
    // Older than the last reading.
    const late = await record(uid, { cnm: 20_050, tm: now() - 2 * DAY });
    expect(late.body.applied).toBe(false);
    expect(late.body.entries[0].voided).toMatchObject({
      reason: MeterReason.outOfSequence,
      auto: true,
      by: null,
    });
    // More than the fleet's 4,800 km in one day.
    const far = await record(uid, { cnm: 25_000, tm: now() - 60 });
    expect(far.body.entries[0].voided).toMatchObject({ reason: MeterReason.dailyDistance, auto: true });
    // 30 engine hours in less than a day.
    const hours = await record(uid, { cneh: 1032, tm: now() - 60 });
    expect(hours.body.entries[0].voided).toMatchObject({
      reason: MeterReason.hoursFasterThanTime,
      auto: true,
    });
    expect(await unitWire(uid)).toMatchObject({ cnm: 20_100, cneh: 1002 });
    // The fleet's own limit (the fleet setting meterDailyDistanceMax): 10,000 km a day lets it through.
    const admin = await t.login('admin');
    const fleetUrl = `/api/fleets/${fx.fleetId}`;
    expect((await admin.put(fleetUrl, { mdd: 10_000 })).body.mdd).toBe(10_000);
    try {
      const ok = await record(uid, { cnm: 25_000, tm: now() - 30 });
      expect(ok.body).toMatchObject({ applied: true, cnm: 25_000 });
    } finally {
      await admin.put(fleetUrl, { mdd: 4800 });
    }
    // A manager restores an automatic void: the newest counts again.
    const restored = await manager.post(`${meterUrl(uid)}/${hours.body.entries[0].id}/restore`, {});
    expect(restored.body).toMatchObject({ applied: true, cneh: 1032 });
  });

  it('refuses a tracker’s engine hours faster than time and its distance over a lower fleet limit', async () => {
    const uid = await fx.unit(10_000, 500);
    const device = await deviceOf(uid);
    const send = (timestamp: number, extra: string) =>
      t.anon.get(`/api/ingest/osmand?id=${device}&lat=53.9&lon=27.5&timestamp=${timestamp}&${extra}`);
    const t0 = now() - 3 * 3600;
    await send(t0, 'odometer=10000000&hours=500');
    // Five engine hours in ten minutes.
    expect((await send(t0 + 600, 'hours=505')).body).toEqual({ ok: false, reason: 'Reading refused' });
    expect((await history(uid))[0]).toMatchObject({ st: 'refused', reason: MeterReason.hoursFasterThanTime });
    // A fleet limit of 100 km a day: 150 km in an hour is refused with that reason.
    const admin = await t.login('admin');
    const fleetUrl = `/api/fleets/${fx.fleetId}`;
    expect((await admin.put(fleetUrl, { mdd: 100 })).status).toBe(200);
    try {
      expect((await send(t0 + 3600, 'odometer=10150000')).body).toEqual({
        ok: false,
        reason: 'Reading refused',
      });
      expect((await history(uid))[0]).toMatchObject({ st: 'refused', reason: MeterReason.dailyDistance });
    } finally {
      await admin.put(fleetUrl, { mdd: 4800 });
    }
    expect((await send(t0 + 7200, 'odometer=10150000&hours=501')).body).toEqual({ ok: true });
    expect(await unitWire(uid)).toMatchObject({ cnm: 10_150, cneh: 501 });
  });

  it('meter replaced: the next reading starts a new scale, the interval keeps its distance', async () => {
    const uid = await fx.unit(90_000, 0);
    const { aid } = await fx.assignment(uid, { lcnm: 85_000, lceh: 0, ltm: now() - 30 * DAY, cnt: 1 });
    expect((await record(uid, { cnm: 90_200, tm: now() - DAY })).status).toBe(200);
    const replaced = await manager.post(`${meterUrl(uid)}/replaced`, {});
    expect(replaced.status).toBe(200);
    expect(replaced.body.entries[0]).toMatchObject({ st: 'replaced', src: 'manual', old_cnm: 90_200 });
    expect((await fx.unitRow(uid)).meter_odo_device).toBeNull();
    // The new dashboard shows 12 km.
    const first = await record(uid, { cnm: 12 });
    expect(first.body).toMatchObject({ cnm: 12, applied: true });
    expect(first.body.entries[0]).toMatchObject({ st: 'baseline', old_cnm: 90_200, shift_cnm: 12 - 90_200 });
    // 5,200 km since the last service before, and after.
    expect((await fx.assignmentRow(aid)).lcnm).toBe(85_000 + 12 - 90_200);
    // The scale goes on from there: a normal reading.
    const next = await record(uid, { cnm: 40 });
    expect(next.body.entries[0]).toMatchObject({ st: 'accepted', voided: null });
    expect((await viewer.post(`${meterUrl(uid)}/replaced`, {})).status).toBe(403);
  });

  it('replaced on a tracked unit: the device’s next odometer is a new baseline', async () => {
    const uid = await fx.unit(50_000, 0);
    const device = await deviceOf(uid);
    const send = (timestamp: number, km: number) =>
      t.anon.get(
        `/api/ingest/osmand?id=${device}&lat=53.9&lon=27.5&timestamp=${timestamp}&odometer=${km * 1000}`,
      );
    await send(now() - 3 * 3600, 50_000);
    await send(now() - 2 * 3600, 50_010);
    expect((await fx.unitRow(uid)).meter_odo_device).toBe(device);
    expect((await manager.post(`${meterUrl(uid)}/replaced`, {})).status).toBe(200);
    // The swapped tracker counts from 300 km: taken as the new scale, not refused as going backwards.
    await send(now() - 60, 300);
    expect((await unitWire(uid)).cnm).toBe(300);
    const entries = await history(uid);
    expect(entries[0]).toMatchObject({ st: 'replaced', old_cnm: 50_010 });
    expect(entries[1]).toMatchObject({ st: 'baseline', src: 'osmand', cnm: 300, old_cnm: 50_010 });
  });
});
