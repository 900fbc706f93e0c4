import { describe, expect, it } from 'vitest';
import { isFutureDay, parseDay, type Thresholds, thresholdIssues } from './rules.js';

const off: Thresholds = {
  cnme: 0,
  cnmd: 0,
  cnmo: 0,
  cnehe: 0,
  cnehd: 0,
  cneho: 0,
  de: 0,
  dd: 0,
  du: 'd',
  do: 0,
};
const fieldsOf = (v: Partial<Thresholds>) => thresholdIssues({ ...off, ...v }, 'body').map((i) => i.field);

describe('interval threshold rules (PRODUCT.md "Intervals")', () => {
  it('needs at least one kind enabled', () => {
    expect(fieldsOf({})).toEqual(['body.cnme']);
    expect(fieldsOf({ cnmd: 100, dd: 3 })).toEqual(['body.cnme']);
    expect(fieldsOf({ cnme: 1, cnmd: 100 })).toEqual([]);
    expect(fieldsOf({ cnehe: 1, cnehd: 100 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 1 })).toEqual([]);
  });

  it('needs positive frequencies only for enabled kinds', () => {
    expect(fieldsOf({ cnme: 1, cnmd: 0, cnehe: 1, cnehd: 0, de: 1, dd: 0 })).toEqual([
      'body.cnmd',
      'body.cnehd',
      'body.dd',
    ]);
    expect(fieldsOf({ cnme: 1, cnmd: 10, cnehd: 0, cneho: 50 })).toEqual([]);
  });

  it('keeps counter advance notices below the frequency, 0 allowed', () => {
    expect(fieldsOf({ cnme: 1, cnmd: 100, cnmo: 99 })).toEqual([]);
    expect(fieldsOf({ cnme: 1, cnmd: 100, cnmo: 100 })).toEqual(['body.cnmo']);
    expect(fieldsOf({ cnehe: 1, cnehd: 100, cneho: 0 })).toEqual([]);
    expect(fieldsOf({ cnehe: 1, cnehd: 100, cneho: 101 })).toEqual(['body.cneho']);
  });

  it('compares the time notice in days against the frequency in days (week 7, month 30, year 365)', () => {
    expect(fieldsOf({ de: 1, dd: 10, du: 'd', do: 9 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 10, du: 'd', do: 10 })).toEqual(['body.do']);
    expect(fieldsOf({ de: 1, dd: 2, du: 'w', do: 13 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 2, du: 'w', do: 14 })).toEqual(['body.do']);
    expect(fieldsOf({ de: 1, dd: 1, du: 'm', do: 29 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 1, du: 'm', do: 30 })).toEqual(['body.do']);
    expect(fieldsOf({ de: 1, dd: 1, du: 'y', do: 364 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 1, du: 'y', do: 365 })).toEqual(['body.do']);
  });

  it('prefixes fields for batch rows', () => {
    expect(thresholdIssues(off, 'body.intervals.3')[0]?.field).toBe('body.intervals.3.cnme');
  });
});

describe('last service dates (spec §5 "Import: intervals")', () => {
  const utc3 = 180;
  it('reads YYYY-MM-DD as the start of that day in the fleet zone', () => {
    expect(parseDay('2024-02-29', 0)).toBe(Date.UTC(2024, 1, 29) / 1000);
    expect(parseDay('2024-02-29', utc3)).toBe(Date.UTC(2024, 1, 29) / 1000 - 3 * 3600);
    expect(parseDay(' 2024-1-5 ', 0)).toBe(Date.UTC(2024, 0, 5) / 1000);
    expect(parseDay(1700000000, utc3)).toBe(1700000000);
  });

  it('refuses month numbers outside 1-12, impossible days and other shapes', () => {
    expect(parseDay('2024-13-01', 0)).toBe('Month must be 1-12');
    expect(parseDay('2024-00-10', 0)).toBe('Month must be 1-12');
    expect(parseDay('2023-02-29', 0)).toBe('No such day');
    expect(parseDay('01.02.2024', 0)).toBe('Date must be YYYY-MM-DD');
  });

  it('allows today and earlier, not tomorrow, in the fleet zone', () => {
    const at = Date.UTC(2024, 5, 10, 22, 30) / 1000; // 01:30 on June 11 at UTC+3
    const june11 = Date.UTC(2024, 5, 11) / 1000 - 3 * 3600;
    expect(isFutureDay(june11, utc3, at)).toBe(false);
    expect(isFutureDay(june11 + 86399, utc3, at)).toBe(false);
    expect(isFutureDay(june11 + 86400, utc3, at)).toBe(true);
    expect(isFutureDay(june11 + 86400, 0, at)).toBe(true);
  });
});
