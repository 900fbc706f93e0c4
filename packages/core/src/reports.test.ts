import { describe, expect, it } from 'vitest';
import { isoWeekStart, reportBucket, reportBuckets } from './reports.js';

describe('report buckets (contracts/reports.ts decision 4)', () => {
  it('weeks start on Monday (ISO), across month and year ends', () => {
    expect(isoWeekStart('2025-03-30')).toBe('2025-03-24'); // a Sunday
    expect(isoWeekStart('2025-03-31')).toBe('2025-03-31'); // a Monday
    expect(isoWeekStart('2026-01-01')).toBe('2025-12-29'); // a Thursday
    expect(isoWeekStart('2024-03-02')).toBe('2024-02-26'); // leap year
  });

  it('names a bucket by its first day, clipped to the period start', () => {
    expect(reportBucket('2025-03-30', 'none', '2025-03-01')).toBeNull();
    expect(reportBucket('2025-03-30', 'day', '2025-03-01')).toBe('2025-03-30');
    expect(reportBucket('2025-03-30', 'week', '2025-03-01')).toBe('2025-03-24');
    expect(reportBucket('2025-03-02', 'week', '2025-03-01')).toBe('2025-03-01'); // week began in February
    expect(reportBucket('2025-03-30', 'month', '2025-03-01')).toBe('2025-03-01');
    expect(reportBucket('2025-03-30', 'month', '2025-03-15')).toBe('2025-03-15');
    expect(reportBucket('2025-04-02', 'month', '2025-03-15')).toBe('2025-04-01');
  });

  it('lists every bucket of a period once, in order', () => {
    expect(reportBuckets('2025-03-01', '2025-03-31', 'none')).toEqual([]);
    expect(reportBuckets('2025-03-29', '2025-04-01', 'day')).toEqual([
      '2025-03-29',
      '2025-03-30',
      '2025-03-31',
      '2025-04-01',
    ]);
    expect(reportBuckets('2025-03-01', '2025-03-31', 'week')).toEqual([
      '2025-03-01',
      '2025-03-03',
      '2025-03-10',
      '2025-03-17',
      '2025-03-24',
      '2025-03-31',
    ]);
    expect(reportBuckets('2024-12-15', '2025-02-10', 'month')).toEqual([
      '2024-12-15',
      '2025-01-01',
      '2025-02-01',
    ]);
    expect(reportBuckets('2025-01-01', '2025-12-31', 'day')).toHaveLength(365);
  });

  it('refuses a day that is not YYYY-MM-DD', () => {
    expect(() => reportBucket('2025-3-1', 'day', '2025-01-01')).toThrow();
  });
});
