import { describe, expect, it } from 'vitest';
import { isFutureDay, parseDay } from './rules.js';

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
