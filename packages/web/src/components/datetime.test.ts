import { describe, expect, it } from 'vitest';
import {
  daysInMonth,
  inputDateOf,
  parseDateInFormat,
  parseDateInput,
  parseRequestDate,
  parseTimeInput,
  requestDateOf,
  TIME_MAX,
  TIME_MIN,
  timeOptions,
} from './datetime.ts';

describe('parseDateInput (spec §5: YYYY-M-D)', () => {
  it('reads the default input format, with or without leading zeros', () => {
    expect(parseDateInput('2026-3-4')).toEqual({ year: 2026, month: 3, day: 4 });
    expect(parseDateInput('2026-03-04')).toEqual({ year: 2026, month: 3, day: 4 });
    expect(parseDateInput(' 999-12-31 ')).toEqual({ year: 999, month: 12, day: 31 });
  });
  it('accepts a year of at most 4 digits', () => {
    expect(parseDateInput('12026-1-1')).toBeNull();
    expect(parseDateInput('0-1-1')).toBeNull();
  });
  it('accepts a month 1-12 and a day 1-31', () => {
    expect(parseDateInput('2026-0-1')).toBeNull();
    expect(parseDateInput('2026-13-1')).toBeNull();
    expect(parseDateInput('2026-1-0')).toBeNull();
    expect(parseDateInput('2026-1-32')).toBeNull();
    expect(parseDateInput('2026-001-1')).toBeNull();
  });
  it('needs a real calendar date', () => {
    expect(parseDateInput('2026-2-29')).toBeNull();
    expect(parseDateInput('2024-2-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseDateInput('1900-2-29')).toBeNull();
    expect(parseDateInput('2000-2-29')).not.toBeNull();
    expect(parseDateInput('2026-4-31')).toBeNull();
  });
  it('refuses other shapes', () => {
    for (const s of ['', '2026/3/4', '4.3.2026', '2026-3', '2026-3-4T00:00', 'abcd-1-1'])
      expect(parseDateInput(s), s).toBeNull();
  });
  it('writes request and input dates', () => {
    expect(requestDateOf({ year: 2026, month: 3, day: 4 })).toBe('2026-03-04');
    expect(requestDateOf({ year: 999, month: 12, day: 31 })).toBe('0999-12-31');
    expect(inputDateOf({ year: 2026, month: 3, day: 4 })).toBe('2026-3-4');
    expect(parseRequestDate('2026-03-04')).toEqual({ year: 2026, month: 3, day: 4 });
    expect(parseRequestDate('2026-3-4')).toBeNull();
  });
  it('knows month lengths', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2023, m))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
  });
});

describe('time picker (spec §5: 00:00:00 through 23:59:00, HH:mm:ss)', () => {
  it('parses typed times to HH:mm:ss', () => {
    expect(parseTimeInput('7:05')).toBe('07:05:00');
    expect(parseTimeInput('00:00')).toBe(TIME_MIN);
    expect(parseTimeInput('23:59')).toBe(TIME_MAX);
    expect(parseTimeInput('23:59:00')).toBe(TIME_MAX);
  });
  it('refuses times outside the range', () => {
    for (const s of ['24:00', '23:60', '23:59:30', '7', '7:5', 'ab:cd', ''])
      expect(parseTimeInput(s), s).toBeNull();
  });
  it('lists options from 00:00:00 through 23:59:00', () => {
    const half = timeOptions();
    expect(half[0]).toBe('00:00:00');
    expect(half[1]).toBe('00:30:00');
    expect(half.at(-2)).toBe('23:30:00');
    expect(half.at(-1)).toBe('23:59:00');
    const minutes = timeOptions(1);
    expect(minutes).toHaveLength(1440);
    expect(minutes.at(-1)).toBe('23:59:00');
  });
});

describe('parseDateInFormat (typed as the field shows it)', () => {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  it('reads each settings format (spec §5)', () => {
    const d = { year: 2026, month: 11, day: 25 };
    expect(parseDateInFormat('25.11.2026', 'DD.MM.YYYY')).toEqual(d);
    expect(parseDateInFormat('25 Nov 2026', 'DD MMM YYYY', months)).toEqual(d);
    expect(parseDateInFormat('25 nov. 2026', 'DD MMM YYYY', months)).toEqual(d);
    expect(parseDateInFormat('2026-11-25', 'YYYY-MM-DD')).toEqual(d);
    expect(parseDateInFormat('11-25-2026', 'MM-DD-YYYY')).toEqual(d);
    expect(parseDateInFormat('25-11-2026', 'DD-MM-YYYY')).toEqual(d);
  });

  it('takes short day and month numbers and any separator', () => {
    expect(parseDateInFormat('5.3.2026', 'DD.MM.YYYY')).toEqual({ year: 2026, month: 3, day: 5 });
    expect(parseDateInFormat(' 05/03/2026 ', 'DD.MM.YYYY')).toEqual({ year: 2026, month: 3, day: 5 });
  });

  it('always takes the spec input YYYY-M-D as well', () => {
    expect(parseDateInFormat('2026-3-5', 'DD.MM.YYYY')).toEqual({ year: 2026, month: 3, day: 5 });
    expect(parseDateInFormat('2026-11-25', 'MM-DD-YYYY')).toEqual({ year: 2026, month: 11, day: 25 });
  });

  it('refuses what is not a date of that format', () => {
    expect(parseDateInFormat('31.02.2026', 'DD.MM.YYYY')).toBeNull();
    expect(parseDateInFormat('25.13.2026', 'DD.MM.YYYY')).toBeNull();
    expect(parseDateInFormat('13-25-2026', 'MM-DD-YYYY')).toBeNull();
    expect(parseDateInFormat('25 Foo 2026', 'DD MMM YYYY', months)).toBeNull();
    expect(parseDateInFormat('25.11.26', 'DD.MM.YYYY')).toBeNull();
    expect(parseDateInFormat('', 'DD.MM.YYYY')).toBeNull();
  });
});
