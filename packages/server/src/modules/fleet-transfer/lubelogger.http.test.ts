import { ACL_ALL } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountOf,
  type Client,
  createFleet,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { lubeFiles } from './fixtures/lubelogger.js';

/**
 * The LubeLogger migration: preview, vehicle → unit mapping (existing or created),
 * the import and its summary; a bad row or a bad mapping stores nothing; admin on the fleet only.
 * SQLite and PostgreSQL (TEST_DB).
 */
describe('LubeLogger migration', () => {
  let t: TestServer;
  let accountId: number;
  const db = () => t.server.ctx.db.kysely;

  async function fleetWithAdmin(name: string): Promise<{ fid: number; client: Client }> {
    const fid = await createFleet(t, accountId, name);
    const user = `lube-${name.replace(/\W+/g, '-').toLowerCase()}`;
    await createUser(t, { name: user, accountId, memberships: [{ fleetId: fid, acl: ACL_ALL }] });
    return { fid, client: await t.login(user) };
  }
  const stored = async (fid: number) => ({
    units: (await db().selectFrom('units').select('id').where('fleet_id', '=', fid).execute()).length,
    services: (await db().selectFrom('services').select('id').where('fleet_id', '=', fid).execute()).length,
    fuel: (await db().selectFrom('fuel_fillings').select('id').where('fleet_id', '=', fid).execute()).length,
  });

  beforeAll(async () => {
    t = await startTestServer();
    accountId = await accountOf(t, 'manager');
  });
  afterAll(() => t.close());

  it('previews the files: counts per kind, vehicles with the unit of the same name, rows', async () => {
    const { fid, client } = await fleetWithAdmin('Lube preview');
    const van = await createUnit(t, { accountId, fleetId: fid, name: 'Van' });
    const res = await client.post(`/api/fleets/${fid}/transfer/lubelogger/parse`, { files: lubeFiles() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.counts).toEqual({ service: 2, repair: 1, upgrade: 0, fuel: 3, odometer: 1, reminder: 1 });
    expect(res.body.errors).toBe(0);
    expect(res.body.vehicles).toEqual([
      { vehicle: 'Pickup', rows: 7, unit: null },
      { vehicle: 'Van', rows: 1, unit: van },
    ]);
    expect(res.body.rows[0]).toMatchObject({
      kind: 'service',
      date: '2024-01-15',
      name: 'Oil change',
      cost: '89.9',
    });
    expect(await stored(fid)).toEqual({ units: 1, services: 0, fuel: 0 });
  });

  it('imports with the mapping: a created unit and an existing one; summary', async () => {
    const { fid, client } = await fleetWithAdmin('Lube import');
    const van = await createUnit(t, { accountId, fleetId: fid, name: 'Van' });
    const res = await client.post(`/api/fleets/${fid}/transfer/lubelogger`, {
      files: lubeFiles(),
      vehicles: [
        { vehicle: 'Pickup', create: 'Pickup 2019' },
        { vehicle: 'Van', unit: van },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      units_created: 1,
      services: 1,
      archive: 3,
      fuel_fillings: 3,
      odometer: 1,
      odometer_refused: 0,
    });
    const pickup = await db()
      .selectFrom('units')
      .selectAll()
      .where('fleet_id', '=', fid)
      .where('name', '=', 'Pickup 2019')
      .executeTakeFirstOrThrow();
    expect(pickup.mileage).toBe(53001);
    const services = await db().selectFrom('services').selectAll().where('fleet_id', '=', fid).execute();
    expect(
      services
        .filter((s) => s.f === 8)
        .map((s) => s.name)
        .sort(),
    ).toEqual(['Brake pads', 'Headlight', 'Oil change']);
    const reminder = services.find((s) => s.name === 'Timing belt')!;
    expect(reminder).toMatchObject({ f: 129, limit_mileage: 90000, object_id: pickup.id });
    const fuel = await db()
      .selectFrom('fuel_fillings')
      .selectAll()
      .where('fleet_id', '=', fid)
      .orderBy('filled_at')
      .execute();
    expect(fuel.map((f) => [f.unit_id, f.volume, f.total_cost])).toEqual([
      [van, 30_000, 50_000],
      [pickup.id, 48_331, 76_240],
      [pickup.id, 51_913, 85_720],
    ]);
    // The costs reach the statistics aggregates.
    const cost = await db()
      .selectFrom('cost_days')
      .select((eb) => [eb.fn.sum<number>('services_cost').as('s'), eb.fn.sum<number>('fuel_cost').as('f')])
      .where('fleet_id', '=', fid)
      .where('object_type', '=', '*')
      .executeTakeFirstOrThrow();
    expect(Number(cost.s)).toBe(89_900 + 1_234_500 + 25_000);
    expect(Number(cost.f)).toBe(50_000 + 76_240 + 85_720);
  });

  it('moves an existing unit by its odometer records through the counter rules, refusals kept', async () => {
    const { fid, client } = await fleetWithAdmin('Lube odometers');
    // Total 1000 km at joining (base 1000): the actual counter is 0 km.
    const van = await createUnit(t, { accountId, fleetId: fid, name: 'Van', mileage: 1000 });
    const odometer = (rows: string[]) => ({
      name: 'odo.csv',
      kind: 'odometer',
      vehicle: 'Van',
      content: ['Date,InitialOdometer,Odometer,Notes', ...rows].join('\n'),
    });
    const first = await client.post(`/api/fleets/${fid}/transfer/lubelogger`, {
      files: [odometer(['2024-02-15,0,12500,', '2024-03-01,0,12400,typo', '2024-03-10,0,13000,'])],
      vehicles: [{ vehicle: 'Van', unit: van }],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ units_created: 0, odometer: 3, odometer_refused: 1 });
    const unit = () => db().selectFrom('units').selectAll().where('id', '=', van).executeTakeFirstOrThrow();
    // Actual 13000 km: total = 13000 + base 1000.
    expect((await unit()).mileage).toBe(14_000);
    const history = async () =>
      db()
        .selectFrom('meter_readings')
        .select(['tm_ms', 'source', 'status', 'mileage', 'reason'])
        .where('unit_id', '=', van)
        .orderBy('tm_ms')
        .orderBy('id')
        .execute();
    expect((await history()).map((r) => [r.source, r.status, r.mileage, r.reason])).toEqual([
      ['import', 'accepted', 13_500, null],
      ['import', 'refused', 13_400, 'Odometer went backwards'],
      ['import', 'accepted', 14_000, null],
    ]);
    // The meter history lists them as imported readings.
    const listed = await client.get(`/api/fleets/${fid}/units/${van}/meter?from=0`);
    expect(listed.status).toBe(200);
    expect(listed.body.entries.filter((e: { src: string }) => e.src === 'import')).toHaveLength(3);

    // Older than the unit's newest reading: refused, never lowering the counter.
    const second = await client.post(`/api/fleets/${fid}/transfer/lubelogger`, {
      files: [odometer(['2024-03-05,0,12800,'])],
      vehicles: [{ vehicle: 'Van', unit: van }],
    });
    expect(second.status).toBe(200);
    expect(second.body.odometer_refused).toBe(1);
    expect((await unit()).mileage).toBe(14_000);
    expect((await history()).find((r) => r.reason === 'Reading is out of order')).toMatchObject({
      status: 'refused',
      mileage: 13_800,
    });
    // The step was a correction for the statistics, not distance driven.
    expect((await unit()).counter_off_mileage).toBe(13_000);
  });

  it('stores nothing when a row is bad or a mapping is wrong', async () => {
    const { fid, client } = await fleetWithAdmin('Lube atomic');
    const files = lubeFiles();
    files[2] = { ...files[2]!, content: `${files[2]!.content}\n13/45/2024,1,abc,1,,True,False,,` };
    const bad = await client.post(`/api/fleets/${fid}/transfer/lubelogger`, {
      files,
      vehicles: [
        { vehicle: 'Pickup', create: 'Pickup' },
        { vehicle: 'Van', create: 'Van' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(4);
    expect(JSON.stringify(bad.body.details)).toContain('fuel.csv:4');
    // The first vehicle's unit is made inside the transaction before the second's target is refused.
    const foreign = await createUnit(t, { accountId, fleetId: t.demo.fleetId, name: 'Not here' });
    const wrong = await client.post(`/api/fleets/${fid}/transfer/lubelogger`, {
      files: lubeFiles(),
      vehicles: [
        { vehicle: 'Pickup', create: 'Pickup' },
        { vehicle: 'Van', unit: foreign },
      ],
    });
    expect(wrong.status).toBe(400);
    const missing = await client.post(`/api/fleets/${fid}/transfer/lubelogger`, {
      files: lubeFiles(),
      vehicles: [{ vehicle: 'Pickup', create: 'Pickup' }],
    });
    expect(missing.status).toBe(400);
    expect(await stored(fid)).toEqual({ units: 0, services: 0, fuel: 0 });
  });

  it('needs admin on the fleet', async () => {
    const mechanic = await t.login('mechanic');
    const body = {
      files: lubeFiles(),
      vehicles: [
        { vehicle: 'Pickup', create: 'P' },
        { vehicle: 'Van', create: 'V' },
      ],
    };
    expect(
      (await mechanic.post(`/api/fleets/${t.demo.fleetId}/transfer/lubelogger/parse`, body)).status,
    ).toBe(403);
    expect((await mechanic.post(`/api/fleets/${t.demo.fleetId}/transfer/lubelogger`, body)).status).toBe(403);
    const { client } = await fleetWithAdmin('Lube other');
    expect((await client.post(`/api/fleets/${t.demo.otherFleetId}/transfer/lubelogger`, body)).status).toBe(
      403,
    );
  });
});
