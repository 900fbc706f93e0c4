import { describe, expect, it } from 'vitest';
import { UNIT_TYPES } from './constants.js';
import { UnitImportError, unitTypeOf, vehicleFuelOf } from './import-units.js';
import { checkImportRows, guessImportMapping, type ImportCheckContext, ImportError } from './imports.js';

const TYPES = UNIT_TYPES.map((n, i) => ({ id: i + 1, n }));
const ctx: ImportCheckContext = {
  dateFormat: 'YYYY-MM-DD',
  today: '2026-06-15',
  units: [{ id: 1, n: 'Truck 1' }],
  deviceIds: ['dev-1'],
  unitTypes: TYPES,
  fleetId: 9,
};
const check = (rows: Record<string, string>[], over: Partial<ImportCheckContext> = {}) =>
  checkImportRows('units', rows, { ...ctx, ...over });
const keys = (r: ReturnType<typeof check>) => r.issues.map((i) => `${i.row}.${i.field}:${i.key}`);
const VALID_VIN = '1M8GDM9AXKP042788';
const WRONG_CHECK_VIN = '1M8GDM9A1KP042788';

describe('the units import (docs/product.md "The vehicle profile")', () => {
  it('builds a unit with its vehicle profile from a full row', () => {
    const r = check([
      {
        name: ' Van 7 ',
        device_id: 'imei-7',
        unit_type: 'Van',
        mileage: '12000',
        engine_hours: '300',
        vin: '1m8gdm9a-xkp042788',
        make: 'Ford',
        model: 'Transit',
        model_year: '2019',
        plate: 'B-XY 123',
        fuel_type: 'Diesel',
        tank_capacity: '80.5',
        tags: 'north; Rental, north',
        notes: 'Spare key in the office',
      },
    ]);
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.payloads).toEqual([
      {
        kind: 'units',
        rows: [0],
        data: {
          nm: 'Van 7',
          uid: 'imei-7',
          ut: UNIT_TYPES.indexOf('van') + 1,
          cnm: 12000,
          cneh: 300,
          vp: {
            vin: VALID_VIN,
            mk: 'Ford',
            md: 'Transit',
            yr: 2019,
            pl: 'B-XY 123',
            ft: 'diesel',
            tc: 80.5,
            tg: ['north', 'Rental'],
            nt: 'Spare key in the office',
          },
        },
      },
    ]);
  });

  it('needs only a name; mileage is in the fleet distance unit, as in the unit editor', () => {
    const r = check([{ name: 'Bare', mileage: '100' }], { ms: 1 });
    expect(r.issues).toEqual([]);
    expect(r.payloads[0]?.data).toEqual({ nm: 'Bare', ut: null, cnm: 160.934, vp: {} });
    expect(keys(check([{ name: '' }]))).toEqual([`0.name:${ImportError.required}`]);
  });

  it('refuses a name of the fleet or of an earlier row, without case', () => {
    const r = check([{ name: 'truck 1' }, { name: 'Bus' }, { name: 'BUS ' }]);
    expect(keys(r)).toEqual([`0.name:${UnitImportError.nameTaken}`, `2.name:${UnitImportError.nameTaken}`]);
    expect(r.payloads).toEqual([]);
  });

  it('refuses a device id in use or of an earlier row', () => {
    const r = check([
      { name: 'A', device_id: 'dev-1' },
      { name: 'B', device_id: 'dev-2' },
      { name: 'C', device_id: 'dev-2' },
      { name: 'D', device_id: 'x'.repeat(129) },
    ]);
    expect(keys(r)).toEqual([
      `0.device_id:${UnitImportError.deviceTaken}`,
      `2.device_id:${UnitImportError.deviceTaken}`,
      `3.device_id:${ImportError.tooLong}`,
    ]);
  });

  it('refuses a VIN of wrong length or characters, and warns of a wrong check digit', () => {
    const r = check([
      { name: 'A', vin: '1M8GDM9AXKP04278' },
      { name: 'B', vin: '1M8GDM9AXKP04278O' },
      { name: 'C', vin: WRONG_CHECK_VIN },
    ]);
    expect(keys(r)).toEqual([`0.vin:${UnitImportError.vinLength}`, `1.vin:${UnitImportError.vinChars}`]);
    expect(r.warnings).toEqual([{ row: 2, field: 'vin', key: UnitImportError.vinCheck }]);
    const kept = check([{ name: 'C', vin: WRONG_CHECK_VIN }]);
    expect(kept.issues).toEqual([]);
    expect(kept.warnings).toHaveLength(1);
    expect(kept.payloads[0]?.data).toMatchObject({ vp: { vin: WRONG_CHECK_VIN } });
  });

  it('holds year, tank, tags, texts and counters to the profile tab limits', () => {
    const r = check([
      { name: 'A', model_year: '1885' },
      { name: 'B', model_year: '2019.5' },
      { name: 'C', tank_capacity: '0' },
      { name: 'D', tank_capacity: '100000.001' },
      { name: 'E', tank_capacity: '80,5' },
      { name: 'F', tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(',') },
      { name: 'G', tags: 'x'.repeat(33) },
      { name: 'H', plate: 'P'.repeat(33), make: 'M'.repeat(65) },
      { name: 'I', mileage: '1000000001' },
      { name: 'J', unit_type: 'Spaceship', fuel_type: 'Steam' },
    ]);
    expect(keys(r)).toEqual([
      `0.model_year:${UnitImportError.year}`,
      `1.model_year:${UnitImportError.year}`,
      `2.tank_capacity:${ImportError.positive}`,
      `3.tank_capacity:${UnitImportError.tank}`,
      `4.tank_capacity:${ImportError.decimal}`,
      `5.tags:${UnitImportError.tags}`,
      `6.tags:${UnitImportError.tags}`,
      `7.make:${ImportError.tooLong}`,
      `7.plate:${ImportError.tooLong}`,
      `8.mileage:${UnitImportError.counter}`,
      `9.unit_type:${UnitImportError.unitType}`,
      `9.fuel_type:${UnitImportError.fuelType}`,
    ]);
  });

  it('reads unit types and fuel types by key, id, any language or a common word', () => {
    const lorry = UNIT_TYPES.indexOf('lorry') + 1;
    expect(unitTypeOf('lorry', TYPES)).toBe(lorry);
    expect(unitTypeOf('LKW', TYPES) ?? unitTypeOf('Lkw', TYPES)).toBe(lorry);
    expect(unitTypeOf('Truck', TYPES)).toBe(lorry);
    expect(unitTypeOf(String(lorry), TYPES)).toBe(lorry);
    expect(unitTypeOf('99', TYPES)).toBeUndefined();
    expect(unitTypeOf('Heavy truck', TYPES)).toBe(UNIT_TYPES.indexOf('heavy_truck') + 1);
    expect(vehicleFuelOf('Gasoline')).toBe('petrol');
    expect(vehicleFuelOf('Benzin')).toBe('petrol');
    expect(vehicleFuelOf('Elektrisch')).toBe('electric');
    expect(vehicleFuelOf('Дизель')).toBe('diesel');
    expect(vehicleFuelOf('lpg')).toBe('lpg');
    expect(vehicleFuelOf('coal')).toBeUndefined();
  });

  it('guesses the columns of Fleetio, LubeLogger, the fleet export and German titles', () => {
    const fleetio = [
      'Name',
      'Year',
      'Make',
      'Model',
      'VIN',
      'License Plate',
      'Type',
      'Group',
      'Current Meter Value',
      'Fuel Type',
    ];
    expect(guessImportMapping('units', fleetio)).toEqual({
      name: 0,
      model_year: 1,
      make: 2,
      model: 3,
      vin: 4,
      plate: 5,
      unit_type: 6,
      tags: 7,
      mileage: 8,
      fuel_type: 9,
    });
    const lubelogger = ['Year', 'Make', 'Model', 'LicensePlate', 'Tags', 'Notes'];
    expect(guessImportMapping('units', lubelogger)).toEqual({
      model_year: 0,
      make: 1,
      model: 2,
      plate: 3,
      tags: 4,
      notes: 5,
    });
    const exported = ['id', 'name', 'unit_type_id', 'vin', 'make', 'model', 'year', 'plate', 'tank_capacity'];
    expect(guessImportMapping('units', exported)).toMatchObject({
      name: 1,
      unit_type: 2,
      vin: 3,
      model_year: 6,
      plate: 7,
      tank_capacity: 8,
    });
    const german = [
      'Bezeichnung',
      'Geräte-ID',
      'Kennzeichen',
      'FIN',
      'Baujahr',
      'Schlagwörter',
      'Tankinhalt',
    ];
    expect(guessImportMapping('units', german)).toEqual({
      name: 0,
      device_id: 1,
      plate: 2,
      vin: 3,
      model_year: 4,
      tags: 5,
      tank_capacity: 6,
    });
  });
});
