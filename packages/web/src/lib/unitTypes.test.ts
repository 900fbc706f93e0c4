import { describe, expect, it } from 'vitest';
import {
  decodeUnitTypes,
  encodeUnitTypes,
  MAX_UNIT_TYPES,
  matchesUnitTypes,
  UNKNOWN_TYPE,
} from './unitTypes.ts';

describe('unit-type filter', () => {
  it('reads ids, drops bad values and repeats, keeps at most five', () => {
    expect(MAX_UNIT_TYPES).toBe(5);
    expect(decodeUnitTypes('1,a,2,2,-3,none,4,5,6,7')).toEqual([1, 2, 4, 5, 6]);
    expect(decodeUnitTypes('1,a,2,2,-3,none,4,5,6,7', true)).toEqual([1, 2, UNKNOWN_TYPE, 4, 5]);
    expect(decodeUnitTypes(null)).toEqual([]);
  });

  it('writes the choice back, at most five, empty for none', () => {
    expect(encodeUnitTypes([1, 2, 3, 4, 5, 6])).toBe('1,2,3,4,5');
    expect(encodeUnitTypes([3, UNKNOWN_TYPE, 3])).toBe('3,none');
    expect(encodeUnitTypes([])).toBe('');
  });

  it('matches a type; no type matches only the unknown entry; no choice matches all', () => {
    expect(matchesUnitTypes([], null)).toBe(true);
    expect(matchesUnitTypes([3, 7], 7)).toBe(true);
    expect(matchesUnitTypes([3, 7], 4)).toBe(false);
    expect(matchesUnitTypes([3], null)).toBe(false);
    expect(matchesUnitTypes([3, UNKNOWN_TYPE], undefined)).toBe(true);
  });
});
