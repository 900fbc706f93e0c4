import { FUEL_RANGE_DAYS, SERVICE_ARCHIVE_RANGE_DAYS } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import {
  dayNumber,
  dayText,
  decodePeriod,
  encodePeriod,
  PERIOD_DAYS_MAX,
  periodError,
  periodRange,
  withDay,
  withKind,
} from './periods.ts';

describe('period (spec §9 time ranges, ending today)', () => {
  it('counts week, month, quarter and year in days ending today', () => {
    expect(periodRange('week', '2026-03-10')).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(periodRange('month', '2026-03-10')).toEqual({ from: '2026-02-09', to: '2026-03-10' });
    expect(periodRange('quarter', '2026-03-10')).toEqual({ from: '2025-12-11', to: '2026-03-10' });
    expect(periodRange('year', '2026-03-10')).toEqual({ from: '2025-03-11', to: '2026-03-10' });
  });

  it('counts 3, 6 and 12 months by calendar months, clamped to shorter months, within the limit', () => {
    expect(periodRange('m3', '2026-05-31')).toEqual({ from: '2026-03-01', to: '2026-05-31' });
    expect(periodRange('m6', '2026-08-31')).toEqual({ from: '2026-03-01', to: '2026-08-31' });
    expect(periodRange('m12', '2026-03-10')).toEqual({ from: '2025-03-11', to: '2026-03-10' });
    expect(periodRange('m3', '2026-05-15')).toEqual({ from: '2026-02-16', to: '2026-05-15' });
    expect(periodRange('m12', '2024-02-29')).toEqual({ from: '2023-03-01', to: '2024-02-29' });
    const r = periodRange('m12', '2026-03-10');
    expect(periodError(r.from, r.to)).toBeNull();
  });

  it('reads the URL, with a month by default and custom days kept', () => {
    const today = '2026-03-10';
    expect(decodePeriod(new URLSearchParams(''), today)).toEqual({
      kind: 'month',
      ...periodRange('month', today),
    });
    expect(decodePeriod(new URLSearchParams('period=bogus'), today).kind).toBe('month');
    expect(decodePeriod(new URLSearchParams('period=year'), today)).toEqual({
      kind: 'year',
      from: '2025-03-11',
      to: today,
    });
    expect(decodePeriod(new URLSearchParams('period=custom&from=2026-01-01&to=2026-01-31'), today)).toEqual({
      kind: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
    });
    // A broken custom day falls back to the month's.
    expect(decodePeriod(new URLSearchParams('period=custom&from=2026-02-30&to=x'), today)).toEqual({
      kind: 'custom',
      ...periodRange('month', today),
    });
    expect(decodePeriod(new URLSearchParams('period=custom&from=2026-02-30'), today).from).toBe('2026-02-09');
  });

  it('writes the URL back: the default leaves no trace, custom keeps its days, other keys stay', () => {
    expect(
      encodePeriod(new URLSearchParams('period=year&x=1'), { kind: 'month', from: 'a', to: 'b' }).toString(),
    ).toBe('x=1');
    expect(
      encodePeriod(new URLSearchParams('period=week'), { kind: 'month', from: '', to: '' }).toString(),
    ).toBe('');
    expect(
      encodePeriod(new URLSearchParams('from=2026-01-01&to=2026-01-02'), {
        kind: 'week',
        from: '2026-03-04',
        to: '2026-03-10',
      }).toString(),
    ).toBe('period=week');
    const p = decodePeriod(new URLSearchParams('period=custom&from=2026-01-01&to=2026-01-31'), '2026-03-10');
    expect(encodePeriod(new URLSearchParams('unit=4'), p).toString()).toBe(
      'unit=4&period=custom&from=2026-01-01&to=2026-01-31',
    );
    expect(decodePeriod(encodePeriod(new URLSearchParams(''), p), '2026-03-10')).toEqual(p);
  });

  it('switches kinds: a named one ends today, custom starts from the days shown', () => {
    const month = { kind: 'month' as const, ...periodRange('month', '2026-03-10') };
    expect(withKind(month, 'week', '2026-03-10')).toEqual({
      kind: 'week',
      from: '2026-03-04',
      to: '2026-03-10',
    });
    expect(withKind(month, 'custom', '2026-03-10')).toEqual({ ...month, kind: 'custom' });
    expect(withDay(month, 'from', '2026-01-01')).toEqual({
      kind: 'custom',
      from: '2026-01-01',
      to: '2026-03-10',
    });
    expect(withDay(month, 'to', '2026-03-01')).toEqual({
      kind: 'custom',
      from: month.from,
      to: '2026-03-01',
    });
  });

  it('refuses a reversed or too long custom period (366 days, the server limit)', () => {
    expect(PERIOD_DAYS_MAX).toBe(366);
    expect(PERIOD_DAYS_MAX).toBe(SERVICE_ARCHIVE_RANGE_DAYS);
    expect(PERIOD_DAYS_MAX).toBe(FUEL_RANGE_DAYS);
    expect(periodError('2026-01-02', '2026-01-01')).toBe('order');
    expect(periodError('2026-02-01', '2026-01-01')).toBe('order');
    expect(periodError('2025-01-01', '2026-01-03')).toBe('tooLong');
    expect(periodError('2025-01-01', '2026-01-02')).toBeNull();
    expect(periodError('2025-01-01', '2026-01-01')).toBeNull();
    expect(periodError('2026-01-01', '2026-01-01')).toBeNull();
    expect(periodError('', '2026-01-01')).toBeNull();
  });

  it('reads and writes days, refusing ones that do not exist', () => {
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayNumber('2026-02-30')).toBeNull();
    expect(dayNumber('2026-1-01')).toBeNull();
    expect(dayText(dayNumber('2024-02-29') ?? 0)).toBe('2024-02-29');
    expect(dayText(0)).toBe('1970-01-01');
  });
});
