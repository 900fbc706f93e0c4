import { teltonikaIoMapping } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { unitTypeIoBody, unitTypeIoDraft, unitTypeIoFieldOf } from './unitTypeIo.ts';

describe('unit type Teltonika IO form', () => {
  it('round-trips a mapping through the draft', () => {
    const mapping = { mileage: { id: 87, unit: 'm' as const }, hours: { id: 103, unit: 'h' as const } };
    expect(unitTypeIoBody(unitTypeIoDraft(mapping))).toEqual(mapping);
    const none = { mileage: null, hours: null };
    expect(unitTypeIoDraft(none)).toEqual({ mileageId: '', mileageUnit: 'm', hoursId: '', hoursUnit: 's' });
    expect(unitTypeIoBody(unitTypeIoDraft(none))).toEqual(none);
  });

  it('sends what is not a whole number so that the contract refuses it on its field', () => {
    const body = unitTypeIoBody({ mileageId: ' 1.5', mileageUnit: 'km', hoursId: '70000', hoursUnit: 's' });
    const issues = teltonikaIoMapping.safeParse(body).error?.issues ?? [];
    expect(issues.map((i) => unitTypeIoFieldOf(i.path.map(String)))).toEqual(['mileageId', 'hoursId']);
  });

  it('names the field of a server path', () => {
    expect(unitTypeIoFieldOf(['body', 'mileage', 'unit'])).toBe('mileageUnit');
    expect(unitTypeIoFieldOf(['hours', 'id'])).toBe('hoursId');
    expect(unitTypeIoFieldOf(['body'])).toBeNull();
  });
});
