import { describe, expect, it } from 'vitest';
import { checkDocument, deviceIds, guessKind, takenDevices, vehicleTargets } from './rules.ts';

describe('migration rules', () => {
  it('checks a Fleetkeep export and counts its collections', () => {
    expect(checkDocument('{')).toEqual({ ok: false, reason: 'json' });
    expect(checkDocument('{"format":"other","version":1}')).toEqual({ ok: false, reason: 'format' });
    expect(checkDocument('{"format":"fleetkeep-fleet","version":7}')).toEqual({
      ok: false,
      reason: 'format',
    });
    const ok = checkDocument(
      JSON.stringify({
        format: 'fleetkeep-fleet',
        version: 1,
        fleet: { name: 'A' },
        units: [{}, {}],
        archive: [{}],
      }),
    );
    expect(ok.ok && ok.counts.units).toBe(2);
    expect(ok.ok && ok.counts.archive).toBe(1);
    expect(ok.ok && ok.counts.services).toBe(0);
    expect(ok.ok && ok.fleetName).toBe('A');
    const v3 = checkDocument(
      JSON.stringify({
        format: 'fleetkeep-fleet',
        version: 3,
        units: [
          { id: 5, name: 'Truck', device_id: 'T-1' },
          { id: 6, name: 'Van' },
        ],
      }),
    );
    expect(v3.ok && v3.units).toEqual([
      { id: 5, name: 'Truck', device: 'T-1' },
      { id: 6, name: 'Van', device: '' },
    ]);
  });
  it('asks again for just the units whose device identifier is taken', () => {
    const units = [
      { id: 5, name: 'Truck', device: 'T-1' },
      { id: 6, name: 'Van', device: 'V-1' },
    ];
    const sent = deviceIds({ 6: ' V-2 ', 7: ' ' });
    expect(sent).toEqual([
      { unit: 6, uid: 'V-2' },
      { unit: 7, uid: null },
    ]);
    const details = [
      { row: 0, field: 'body.document.units.0.device_id', reason: 'in use' },
      { row: 0, field: 'body.device_ids.0.uid', reason: 'in use' },
      { field: 'body.other', reason: 'other' },
    ];
    expect(takenDevices(details, units, sent)).toEqual([5, 6]);
    expect(takenDevices(undefined, units, sent)).toEqual([]);
  });
  it('guesses the record kind from the file name', () => {
    expect(guessKind('GasRecords.csv')).toBe('fuel');
    expect(guessKind('odometer_records.csv')).toBe('odometer');
    expect(guessKind('reminders.csv')).toBe('reminder');
    expect(guessKind('RepairRecords.csv')).toBe('repair');
    expect(guessKind('upgrades.csv')).toBe('upgrade');
    expect(guessKind('anything.csv')).toBe('service');
  });
  it('turns the vehicle choices into the mapping, refusing an unnamed new unit', () => {
    expect(
      vehicleTargets({ Car: { target: 'new', name: ' Car 1 ' }, Van: { target: '7', name: '' } }),
    ).toEqual([
      { vehicle: 'Car', create: 'Car 1' },
      { vehicle: 'Van', unit: 7 },
    ]);
    expect(vehicleTargets({ Car: { target: 'new', name: ' ' } })).toBeNull();
  });
});
