import { guessImportMapping, mapImportRows, UNIT_TYPES, type UnitWire } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type Client, createUnit, startTestServer, type TestServer } from '../../test/harness.js';

/** The units import (docs/product.md "The vehicle profile", "Imports"): POST …/import/units. */
describe('units import', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let outsider: Client;
  let fid: number;
  let base: string;
  let foreignDevice: string;

  beforeAll(async () => {
    t = await startTestServer();
    [manager, mechanic, outsider] = await Promise.all([
      t.login('manager'),
      t.login('mechanic'),
      t.login('outsider'),
    ]);
    fid = t.demo.fleetId;
    base = `/api/fleets/${fid}/import/units`;
    await createUnit(t, { accountId: await accountOf(t, 'manager'), fleetId: fid, name: 'Imp Taken Unit' });
    // A unit of another fleet: its name is free here, its device id is not (unique in the installation).
    const other = await accountOf(t, 'outsider');
    const foreign = await createUnit(t, {
      accountId: other,
      fleetId: t.demo.otherFleetId,
      name: 'Unit Imp B',
    });
    foreignDevice = (
      await t.server.ctx.db.kysely
        .selectFrom('units')
        .select('device_id')
        .where('id', '=', foreign)
        .executeTakeFirstOrThrow()
    ).device_id;
  });
  afterAll(() => t.close());

  const unitsNamed = async (prefix: string) =>
    t.server.ctx.db.kysely
      .selectFrom('units')
      .selectAll()
      .where('fleet_id', '=', fid)
      .where('name', 'like', `${prefix}%`)
      .orderBy('id')
      .execute();
  const post = (client: Client, rows: Record<string, string>[], url = base) =>
    client.post(url, { date_format: 'YYYY-MM-DD', rows });

  it('imports a Fleetio export: the columns guessed, the profile stored, a GET → PUT round trip', async () => {
    const csv = [
      'Name,Year,Make,Model,VIN,License Plate,Type,Group,Current Meter Value,Fuel Type,Notes',
      'Unit Imp A,2019,Ford,Transit,1M8GDM9AXKP042788,B-XY 123,Van,"North; Rental",12000,Gasoline,Key in office',
      'Unit Imp B,2021,MAN,TGX,1M8GDM9A1KP042788,M-AB 9,Truck,North,,Diesel,',
    ].join('\n');
    const parsed = await fetch(`${t.url}${base}/parse?name=fleetio.csv`, {
      method: 'POST',
      headers: {
        authorization: `SSID ${(manager as unknown as { ssid: string }).ssid}`,
        'content-type': 'application/octet-stream',
      },
      body: Buffer.from(csv),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { rows: string[][] } }));
    expect(parsed.status).toBe(200);
    const mapping = guessImportMapping('units', parsed.body.rows[0]!);
    const rows = mapImportRows(parsed.body.rows, mapping, true);
    const r = await post(manager, rows);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ kind: 'units', created: 2, rows: 2 });

    const stored = await unitsNamed('Unit Imp ');
    expect(stored.map((u) => u.name)).toEqual(['Unit Imp A', 'Unit Imp B']);
    // No device id in the file: a placeholder until the tracker's id is entered (as the fleet import).
    expect(stored.every((u) => u.device_id.startsWith('import-'))).toBe(true);
    const list = await manager.get(`/api/fleets/${fid}/units`);
    const a = (list.body.units as UnitWire[]).find((u) => u.nm === 'Unit Imp A')!;
    expect(a).toMatchObject({
      ut: UNIT_TYPES.indexOf('van') + 1,
      cnm: 12000,
      acnm: 0,
      vp: {
        vin: '1M8GDM9AXKP042788',
        mk: 'Ford',
        md: 'Transit',
        yr: 2019,
        pl: 'B-XY 123',
        ft: 'petrol',
        tg: ['North', 'Rental'],
        nt: 'Key in office',
      },
    });
    // A VIN with a wrong check digit is kept (a warning in the preview, as in the profile tab).
    const b = (list.body.units as UnitWire[]).find((u) => u.nm === 'Unit Imp B')!;
    expect(b.vp).toMatchObject({ vin: '1M8GDM9A1KP042788', ft: 'diesel', tg: ['North'] });
    expect(b.ut).toBe(UNIT_TYPES.indexOf('lorry') + 1);
    // The starting mileage is a recorded hand correction, as in the unit editor.
    const corrections = await t.server.ctx.db.kysely
      .selectFrom('counter_corrections')
      .select(['field', 'new_value'])
      .where('unit_id', '=', a.id)
      .execute();
    expect(corrections).toEqual([{ field: 'mileage', new_value: 12000 }]);

    // The unit as read goes back unchanged.
    const put = await manager.put(`/api/fleets/${fid}/units/${a.id}`, a);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual(a);
  });

  it('refuses bad rows with their reasons and writes nothing', async () => {
    const r = await post(manager, [
      { name: 'Unit Imp C', vin: '1M8GDM9AXKP04278', model_year: '1800' },
      { name: 'imp taken UNIT ', plate: 'P'.repeat(33) },
      { name: 'Unit Imp D', tank_capacity: '0', fuel_type: 'Steam', unit_type: 'Spaceship' },
      { name: 'Unit Imp E', device_id: 'imp-dev-1' },
      { name: 'Unit Imp F', device_id: 'imp-dev-1' },
    ]);
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { row: 0, field: 'body.rows.0.vin', message: 'vehicle.vin_length' },
      { row: 0, field: 'body.rows.0.model_year', message: 'imports.err.year' },
      { row: 1, field: 'body.rows.1.plate', message: 'imports.err.tooLong' },
      { row: 1, field: 'body.rows.1.name', message: 'imports.err.unitName' },
      { row: 2, field: 'body.rows.2.unit_type', message: 'imports.err.unitType' },
      { row: 2, field: 'body.rows.2.fuel_type', message: 'imports.err.fuelType' },
      { row: 2, field: 'body.rows.2.tank_capacity', message: 'imports.err.positive' },
      { row: 4, field: 'body.rows.4.device_id', message: 'imports.err.deviceTaken' },
    ]);
    expect(await unitsNamed('Unit Imp C')).toEqual([]);
    expect(await unitsNamed('Unit Imp E')).toEqual([]);
  });

  it("refuses a device id of another fleet's unit as a 409 row, and writes nothing", async () => {
    const r = await post(manager, [
      { name: 'Unit Imp G', device_id: 'imp-dev-g' },
      { name: 'Unit Imp H', device_id: foreignDevice },
    ]);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      error: 10,
      reason: 'imports.err.deviceTaken',
      details: [{ row: 1, field: 'device_id', reason: 'imports.err.deviceTaken', value: foreignDevice }],
    });
    expect(await unitsNamed('Unit Imp G')).toEqual([]);
    // The other fleet's unit names are not this fleet's: "Unit Imp B" of Northwind was no duplicate above.
  });

  it('is for those who may create units, in their own fleet only', async () => {
    const rows = [{ name: 'Unit Imp Perm' }];
    expect((await post(mechanic, rows)).status).toBe(403);
    expect((await post(outsider, rows)).status).toBe(403);
    const foreign = `/api/fleets/${t.demo.otherFleetId}/import/units`;
    expect((await post(manager, rows, foreign)).status).toBe(403);
    expect(await unitsNamed('Unit Imp Perm')).toEqual([]);
    // The outsider imports into their own fleet: this fleet's names and units are invisible there.
    const own = await post(outsider, [{ name: 'Imp Taken Unit', device_id: 'imp-dev-out' }], foreign);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.created).toBe(1);
  });
});
