import { decimal3, lineItemKindInput as kindInput } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { byName, isUniqueViolation, itemKey, kindOf, nameCollator } from './library.js';

describe('natural, case-insensitive name order (spec §3)', () => {
  it('orders digits by value and ignores case and accents', () => {
    const names = ['filter 10', 'Filter 9', 'Brake', 'alpha', 'Filter 100', 'émail'];
    expect([...names].sort(nameCollator.compare)).toEqual([
      'alpha',
      'Brake',
      'émail',
      'Filter 9',
      'filter 10',
      'Filter 100',
    ]);
  });

  it('breaks ties by id so the order is stable', () => {
    const rows = [
      { id: 3, name: 'Oil' },
      { id: 1, name: 'oil' },
      { id: 2, name: 'Air' },
    ];
    expect(rows.sort(byName).map((r) => r.id)).toEqual([2, 1, 3]);
  });
});

describe('library identity and inputs (PRODUCT.md "Line-items library", spec §5)', () => {
  it('keys items by kind and case-insensitive trimmed name', () => {
    expect(itemKey(2, ' Oil Filter ')).toBe(itemKey(2, 'oil filter'));
    expect(itemKey(1, 'Oil filter')).not.toBe(itemKey(2, 'Oil filter'));
  });

  it('reads kinds as numbers or as labour/part text, case-insensitive', () => {
    expect(kindInput.safeParse('LABOUR').success).toBe(true);
    expect(kindInput.safeParse('Part').success).toBe(true);
    expect(kindInput.safeParse('tyre').success).toBe(false);
    expect(kindInput.safeParse(3).success).toBe(false);
    expect(kindInput.safeParse(4).success).toBe(true);
    expect([kindOf('Labour'), kindOf(' PART '), kindOf(4)]).toEqual([1, 2, 4]);
  });

  it('accepts costs with at most 3 decimals, as numbers or text with a dot', () => {
    const cost = decimal3();
    for (const ok of [0, 1, 12.345, '12.345', '7']) expect(cost.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of [-1, 1.2345, '1,5', 'abc', '', Number.NaN, 2e9])
      expect(cost.safeParse(bad).success, String(bad)).toBe(false);
    expect(decimal3({ positive: true }).safeParse(0).success).toBe(false);
  });

  it('recognises unique violations of both dialects only', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' })).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});
