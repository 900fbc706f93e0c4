import dayjs from 'dayjs';
import 'dayjs/locale/de';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatEngineHours, formatNumber, requestDate } from './format.ts';

describe('formatNumber (spec §9)', () => {
  it('groups with spaces and uses a dot decimal', () => {
    expect(formatNumber(1234567.891)).toBe('1 234 567.891');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1 000');
    expect(formatNumber(-1234.5)).toBe('-1 234.5');
  });
  it('keeps at most 3 decimals and drops trailing zeros', () => {
    expect(formatNumber(1.23456)).toBe('1.235');
    expect(formatNumber(2.5)).toBe('2.5');
    expect(formatNumber(2.0001)).toBe('2');
    expect(formatNumber(1.239, { decimals: 1 })).toBe('1.2');
    expect(formatNumber(-0.0001)).toBe('0');
  });
  it('shortens with k/M/G suffixes on request', () => {
    expect(formatNumber(1500, { suffix: true })).toBe('1.5k');
    expect(formatNumber(2_500_000, { suffix: true })).toBe('2.5M');
    expect(formatNumber(3_000_000_000, { suffix: true })).toBe('3G');
    expect(formatNumber(999, { suffix: true })).toBe('999');
    expect(formatNumber(-1500, { suffix: true })).toBe('-1.5k');
  });
  it("shows positive values under 1 as '<1' on request", () => {
    expect(formatNumber(0.4, { lessThanOne: true })).toBe('<1');
    expect(formatNumber(0, { lessThanOne: true })).toBe('0');
    expect(formatNumber(1, { lessThanOne: true })).toBe('1');
    expect(formatNumber(0.4)).toBe('0.4');
  });
  it('formats engine hours with their label', () => {
    expect(formatEngineHours(12345.6, 'e.h.')).toBe('12 345.6 e.h.');
  });
  it('answers empty for non-finite values', () => {
    expect(formatNumber(Number.NaN)).toBe('');
  });
});

describe('dates (spec §5)', () => {
  // 2026-03-04 05:06:07 in local time, so that the test passes in any time zone
  const t = dayjs('2026-03-04T05:06:07').unix();
  it('formats the five date formats', () => {
    expect(formatDate(t, 'DD.MM.YYYY')).toBe('04.03.2026');
    expect(formatDate(t, 'DD MMM YYYY')).toBe('04 Mar 2026');
    expect(formatDate(t, 'YYYY-MM-DD')).toBe('2026-03-04');
    expect(formatDate(t, 'MM-DD-YYYY')).toBe('03-04-2026');
    expect(formatDate(t, 'DD-MM-YYYY')).toBe('04-03-2026');
  });
  it('uses the locale for month names', () => {
    expect(formatDate(t, 'DD MMM YYYY', 'de')).toBe('04 März 2026');
  });
  it('adds the time format', () => {
    expect(formatDateTime(t, 'YYYY-MM-DD', 'HH:mm')).toBe('2026-03-04 05:06');
    expect(formatDateTime(t, 'YYYY-MM-DD', 'hh:mm:ss A')).toBe('2026-03-04 05:06:07 AM');
  });
  it('requests use YYYY-MM-DD', () => {
    expect(requestDate(t)).toBe('2026-03-04');
  });
});
