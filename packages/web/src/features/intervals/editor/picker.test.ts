import { describe, expect, it } from 'vitest';
import { countsUnits, pickerKind, pickerKinds } from './picker.ts';

describe('assigned-units picker', () => {
  const off = { on: false };
  const on = { on: true };

  it('offers units only for an interval that counts mileage or engine hours', () => {
    expect(countsUnits({ mileage: on, engineHours: off })).toBe(true);
    expect(countsUnits({ mileage: off, engineHours: on })).toBe(true);
    expect(countsUnits({ mileage: off, engineHours: off })).toBe(false);
    expect(pickerKinds(true)).toEqual(['u']);
    expect(pickerKind('all', true)).toBe('u');
    expect(pickerKind('d', true)).toBe('u');
  });

  it('offers every kind, all first, for a time-only interval, and keeps the choice', () => {
    expect(pickerKinds(false)).toEqual(['all', 'u', 'd', 't']);
    expect(pickerKind('all', false)).toBe('all');
    expect(pickerKind('t', false)).toBe('t');
  });
});
