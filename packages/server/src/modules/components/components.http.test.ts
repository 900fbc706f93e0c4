import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { type Client, sendOdometer, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * Components through the real server (docs/product.md "Components"): CRUD and the GET → PUT round
 * trip, fleet-defined kinds, mounting at tyre positions (one component per position, 409 otherwise,
 * also when two mechanics race), the distance from real OsmAnd readings and its cost per km, the state
 * machine's refusals, retiring with the history kept, tread readings under the fleet threshold
 * recording the domain event, and another fleet's component and unit answering 404.
 */
describe('components', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let api: string;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
    api = `/api/fleets/${fx.fleetId}/components`;
  });
  afterAll(() => t?.close());

  async function tyre(serial: string, cost = 200) {
    const res = await manager.post(api, { kind: 'tyre', serial, brand: 'Nokian', model: 'Hakka', cost });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: number };
  }

  it('adds, reads, round-trips and deletes; kinds of the fleet', async () => {
    const made = await tyre('DOT 4223', 180.25);
    expect(made).toMatchObject({ state: 'stock', cost: 180.25, distance: 0, cost_per_km: null, mounts: [] });
    const read = (await viewer.get(`${api}/${made.id}`)).body;
    const put = await mechanic.put(`${api}/${made.id}`, { ...read, brand: 'Michelin' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ brand: 'Michelin', serial: 'DOT 4223', cost: 180.25 });

    expect((await manager.post(api, { kind: 'wiper' })).status).toBe(400);
    const kind = await manager.post(`${api}/kinds`, { name: 'wiper' });
    expect(kind.status).toBe(200);
    expect((await manager.post(`${api}/kinds`, { name: 'wiper' })).status).toBe(409);
    const wiper = await manager.post(api, { kind: 'wiper', serial: 'W1' });
    expect(wiper.status).toBe(200);
    expect((await viewer.get(`${api}/kinds`)).body).toMatchObject({
      builtin: ['tyre', 'battery'],
      kinds: [{ name: 'wiper' }],
    });
    expect((await manager.delete(`${api}/kinds/${kind.body.id}`)).status).toBe(409);
    expect((await manager.delete(`${api}/${wiper.body.id}`)).status).toBe(200);
    expect((await manager.delete(`${api}/kinds/${kind.body.id}`)).status).toBe(200);
    expect((await viewer.post(api, { kind: 'tyre' })).status).toBe(403);
  });

  it('mounts four tyres; one per position; distance from OsmAnd readings; cost per km', async () => {
    const unitId = await fx.unit(10_000);
    const { device_id: deviceId } = await fx.unitRow(unitId);
    const tyres = [];
    for (const [i, position] of ['1l', '1R', '2L', '2R'].entries()) {
      const c = await tyre(`T${unitId}-${i}`, 300);
      const res = await mechanic.post(`${api}/${c.id}/mount`, {
        unit_id: unitId,
        position,
        at: now() - 7200,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ state: 'mounted', unit_id: unitId, position: position.toUpperCase() });
      tyres.push(c.id);
    }
    const spare = await tyre(`S${unitId}`);
    const clash = await mechanic.post(`${api}/${spare.id}/mount`, { unit_id: unitId, position: '1L' });
    expect(clash.status).toBe(409);
    expect(clash.body.details[0]).toMatchObject({ id: tyres[0], reason: 'taken', value: '1L' });
    const bad = await mechanic.post(`${api}/${spare.id}/mount`, { unit_id: unitId, position: '9X' });
    expect(bad.status).toBe(400);
    expect(
      (await mechanic.post(`${api}/${tyres[1]}/mount`, { unit_id: unitId, position: '3L' })).status,
    ).toBe(409);

    await sendOdometer(t, deviceId, 10_400, 3600);
    await sendOdometer(t, deviceId, 11_000, 1800);
    const running = (await viewer.get(`${api}/${tyres[0]}`)).body;
    expect(running).toMatchObject({ distance: 1000, cost_per_km: 0.3 });
    const onUnit = (await viewer.get(`${api}?unit_id=${unitId}`)).body;
    expect(onUnit.total).toBe(4);

    const off = await mechanic.post(`${api}/${tyres[2]}/dismount`, {});
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ state: 'stock', unit_id: null, distance: 1000 });
    expect(off.body.mounts).toMatchObject([
      { unit_id: unitId, position: '2L', mount_odometer: 10_000, dismount_odometer: 11_000, distance: 1000 },
    ]);
    await sendOdometer(t, deviceId, 11_500, 600);
    expect((await viewer.get(`${api}/${tyres[2]}`)).body.distance).toBe(1000);
    expect((await viewer.get(`${api}/${tyres[3]}`)).body.distance).toBe(1500);

    // The freed position takes the spare; remounting the first at another unit adds a second period.
    expect(
      (await mechanic.post(`${api}/${spare.id}/mount`, { unit_id: unitId, position: '2L' })).status,
    ).toBe(200);
    const other = await fx.unit(50_000);
    const again = await mechanic.post(`${api}/${tyres[2]}/mount`, { unit_id: other, position: '1L' });
    expect(again.status).toBe(200);
    const twice = await mechanic.post(`${api}/${tyres[2]}/dismount`, { odometer: 50_250 });
    expect(twice.body).toMatchObject({ distance: 1250, cost_per_km: 0.24 });
    expect(twice.body.mounts).toHaveLength(2);
    expect((await mechanic.post(`${api}/${tyres[2]}/dismount`, {})).status).toBe(409);
  });

  it('two mechanics mounting at one position: one succeeds, one is refused', async () => {
    const unitId = await fx.unit(1000);
    const a = await tyre(`RA${unitId}`);
    const b = await tyre(`RB${unitId}`);
    const results = await Promise.all([
      mechanic.post(`${api}/${a.id}/mount`, { unit_id: unitId, position: '1R' }),
      manager.post(`${api}/${b.id}/mount`, { unit_id: unitId, position: '1R' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await viewer.get(`${api}?unit_id=${unitId}`)).body.total).toBe(1);
  });

  it('retiring keeps the history; a retired component takes no action', async () => {
    const unitId = await fx.unit(2000);
    const c = await tyre(`R${unitId}`, 100);
    await mechanic.post(`${api}/${c.id}/mount`, { unit_id: unitId, position: '2R' });
    const retired = await mechanic.post(`${api}/${c.id}/retire`, { odometer: 2500 });
    expect(retired.status, JSON.stringify(retired.body)).toBe(200);
    expect(retired.body).toMatchObject({ state: 'retired', distance: 500, cost_per_km: 0.2 });
    expect(retired.body.mounts).toHaveLength(1);
    expect((await mechanic.post(`${api}/${c.id}/mount`, { unit_id: unitId, position: '2R' })).status).toBe(
      409,
    );
    expect((await mechanic.post(`${api}/${c.id}/retire`, {})).status).toBe(409);
    expect((await manager.delete(`${api}/${c.id}`)).status).toBe(409);
    expect(
      (await viewer.get(`${api}?state=retired`)).body.components.map((x: { id: number }) => x.id),
    ).toContain(c.id);
  });

  it('tread readings: under the fleet threshold they record component.treadLow', async () => {
    const c = await tyre('TREAD');
    expect((await viewer.get(`${api}/settings`)).body).toEqual({ tread_threshold: 3 });
    const ok = await mechanic.post(`${api}/${c.id}/treads`, { depth: 6.5, at: now() - 86_400 });
    expect(ok.body).toMatchObject({ tread: 6.5, tread_low: false });
    expect((await manager.put(`${api}/settings`, { tread_threshold: 4 })).body).toEqual({
      tread_threshold: 4,
    });
    const low = await mechanic.post(`${api}/${c.id}/treads`, { depth: '3.5' });
    expect(low.status, JSON.stringify(low.body)).toBe(200);
    expect(low.body).toMatchObject({ tread: 3.5, tread_low: true });
    expect(low.body.treads).toMatchObject([
      { depth: 6.5, low: false },
      { depth: 3.5, low: true },
    ]);
    const events = await fx.db
      .selectFrom('domain_events')
      .selectAll()
      .where('type', '=', 'component.treadLow')
      .execute();
    expect(events).toHaveLength(1);
    expect((await mechanic.post(`${api}/${c.id}/treads`, { depth: 101 })).status).toBe(400);
    await manager.put(`${api}/settings`, { tread_threshold: 3 });
  });

  it("another fleet's components and units are invisible", async () => {
    const other = `/api/fleets/${t.demo.otherFleetId}/components`;
    const db = t.server.ctx.db.kysely;
    const at = now();
    const row = await db
      .insertInto('components')
      .values({
        fleet_id: t.demo.otherFleetId,
        kind: 'battery',
        state: 'stock',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await manager.get(`${api}/${row.id}`)).status).toBe(404);
    expect((await manager.put(`${api}/${row.id}`, { brand: 'x' })).status).toBe(404);
    expect((await manager.post(`${api}/${row.id}/treads`, { depth: 1 })).status).toBe(404);
    const list = (await manager.get(api)).body.components.map((x: { id: number }) => x.id);
    expect(list).not.toContain(row.id);
    expect((await viewer.get(other)).status).toBe(403);
    const foreignUnit = await db
      .selectFrom('units')
      .select('id')
      .where('fleet_id', '=', t.demo.otherFleetId)
      .executeTakeFirstOrThrow();
    const mine = await tyre('FOREIGN');
    const res = await manager.post(`${api}/${mine.id}/mount`, { unit_id: foreignUnit.id, position: '1L' });
    expect(res.status).toBe(404);
    expect((await manager.get(`${api}/${mine.id}`)).body.state).toBe('stock');
  });
});
