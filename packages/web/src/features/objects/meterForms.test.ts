import { describe, expect, it } from 'vitest';
import { passesValidity, recordBody, recordFieldOf, voidBody } from './meterForms.ts';

describe('meter forms', () => {
  it('sends what is typed, mileage in km', () => {
    expect(recordBody({ mileage: '100', hours: '' }, false)).toEqual({ cnm: 100 });
    expect(recordBody({ mileage: '100', hours: '12.5' }, true)).toEqual({ cnm: 160.934, cneh: 12.5 });
    expect(recordBody({ mileage: ' ', hours: '' }, false)).toEqual({});
    expect(Number.isNaN(recordBody({ mileage: 'x', hours: '' }, false).cnm)).toBe(true);
  });
  it('puts the server’s fields on the form', () => {
    expect(recordFieldOf(['body', 'tm'])).toBe('mileage');
    expect(recordFieldOf(['cneh'])).toBe('hours');
    expect(recordFieldOf(['other'])).toBeNull();
  });
  it('trims the void reason and filters by validity', () => {
    expect(voidBody({ reason: ' typo ' })).toEqual({ reason: 'typo' });
    expect(passesValidity({ voided: null }, 'valid')).toBe(true);
    expect(passesValidity({ voided: null }, 'voided')).toBe(false);
    expect(passesValidity({ voided: {} }, null)).toBe(true);
  });
});
