import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCalendar,
  localDate,
  localDayNumber,
  startOfDay,
  TZ_DST_EUROPE,
  TZ_DST_SOUTH,
  tzOffsetMinutes,
} from './timezone.js';

const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;
/** A tz value: offset minutes in the low 16 bits plus flags. */
const tz = (minutes: number, flags = 0) => (minutes & 0xffff) | flags;
const BERLIN = tz(60, TZ_DST_EUROPE);
const SANTIAGO = tz(-240, TZ_DST_SOUTH);

describe('tzOffsetMinutes', () => {
  it('reads the low 16 bits as signed minutes', () => {
    expect(tzOffsetMinutes(tz(0), 0)).toBe(0);
    expect(tzOffsetMinutes(tz(330), 0)).toBe(330);
    expect(tzOffsetMinutes(tz(-300), 0)).toBe(-300);
    expect(tzOffsetMinutes(0xffff, 0)).toBe(-1);
  });

  it('applies the European rule from the last Sunday of March to the last Sunday of October, 01:00 UTC', () => {
    // 2026: March 29 and October 25 are the last Sundays.
    expect(tzOffsetMinutes(BERLIN, utc('2026-03-29T00:59:59'))).toBe(60);
    expect(tzOffsetMinutes(BERLIN, utc('2026-03-29T01:00:00'))).toBe(120);
    expect(tzOffsetMinutes(BERLIN, utc('2026-10-25T00:59:59'))).toBe(120);
    expect(tzOffsetMinutes(BERLIN, utc('2026-10-25T01:00:00'))).toBe(60);
    // 2024 (leap year): March 31 and October 27.
    expect(tzOffsetMinutes(BERLIN, utc('2024-03-30T12:00:00'))).toBe(60);
    expect(tzOffsetMinutes(BERLIN, utc('2024-03-31T01:00:00'))).toBe(120);
    expect(tzOffsetMinutes(BERLIN, utc('2024-10-27T01:00:00'))).toBe(60);
  });

  it('inverts the rule for the southern hemisphere', () => {
    expect(tzOffsetMinutes(SANTIAGO, utc('2026-01-15T12:00:00'))).toBe(-180);
    expect(tzOffsetMinutes(SANTIAGO, utc('2026-07-15T12:00:00'))).toBe(-240);
    expect(tzOffsetMinutes(SANTIAGO, utc('2026-10-25T01:00:00'))).toBe(-180);
  });
});

describe('startOfDay and localDate', () => {
  it('finds local midnight with positive and negative offsets', () => {
    expect(startOfDay(tz(0), utc('2026-05-10T13:45:00'))).toBe(utc('2026-05-10T00:00:00'));
    expect(startOfDay(tz(180), utc('2026-05-10T22:30:00'))).toBe(utc('2026-05-10T21:00:00'));
    expect(localDate(tz(180), utc('2026-05-10T22:30:00'))).toBe('2026-05-11');
    expect(startOfDay(tz(-300), utc('2026-05-10T03:00:00'))).toBe(utc('2026-05-09T05:00:00'));
    expect(localDate(tz(-300), utc('2026-05-10T03:00:00'))).toBe('2026-05-09');
  });

  it('uses the offset in force at midnight on daylight-saving switch days', () => {
    // Berlin, spring: midnight of March 29 is still winter time (23:00 UTC the day before).
    expect(startOfDay(BERLIN, utc('2026-03-29T12:00:00'))).toBe(utc('2026-03-28T23:00:00'));
    expect(startOfDay(BERLIN, utc('2026-03-30T12:00:00'))).toBe(utc('2026-03-29T22:00:00'));
    // Autumn: midnight of October 25 is summer time; of October 26 winter time.
    expect(startOfDay(BERLIN, utc('2026-10-25T12:00:00'))).toBe(utc('2026-10-24T22:00:00'));
    expect(startOfDay(BERLIN, utc('2026-10-26T12:00:00'))).toBe(utc('2026-10-25T23:00:00'));
    expect(localDate(BERLIN, utc('2026-10-24T22:30:00'))).toBe('2026-10-25');
  });

  it('counts local calendar days', () => {
    expect(
      localDayNumber(BERLIN, utc('2026-03-30T12:00:00')) - localDayNumber(BERLIN, utc('2026-03-28T23:30:00')),
    ).toBe(1);
  });
});

describe('addCalendar', () => {
  it('adds days and weeks keeping the local time of day across a switch', () => {
    const before = utc('2026-03-28T23:00:00'); // Berlin midnight, March 29
    expect(addCalendar(BERLIN, before, 1, 'd')).toBe(utc('2026-03-29T22:00:00'));
    expect(addCalendar(BERLIN, before, 1, 'w')).toBe(utc('2026-04-04T22:00:00'));
    expect(addCalendar(tz(0), utc('2026-12-30T10:00:00'), 3, 'd')).toBe(utc('2027-01-02T10:00:00'));
    expect(addCalendar(tz(0), utc('2026-01-10T00:00:00'), -10, 'd')).toBe(utc('2025-12-31T00:00:00'));
  });

  it('clamps months and years to the end of the month', () => {
    expect(addCalendar(tz(0), utc('2026-01-31T00:00:00'), 1, 'm')).toBe(utc('2026-02-28T00:00:00'));
    expect(addCalendar(tz(0), utc('2024-01-31T00:00:00'), 1, 'm')).toBe(utc('2024-02-29T00:00:00'));
    expect(addCalendar(tz(0), utc('2024-02-29T00:00:00'), 1, 'y')).toBe(utc('2025-02-28T00:00:00'));
    expect(addCalendar(tz(0), utc('2024-02-29T00:00:00'), 4, 'y')).toBe(utc('2028-02-29T00:00:00'));
    expect(addCalendar(tz(0), utc('2026-11-30T00:00:00'), 3, 'm')).toBe(utc('2027-02-28T00:00:00'));
    expect(addCalendar(tz(0), utc('2026-03-31T00:00:00'), -1, 'm')).toBe(utc('2026-02-28T00:00:00'));
  });

  it('works on local dates with a negative offset', () => {
    // 2026-01-31 21:00 local at UTC-5 is 2026-02-01 02:00 UTC.
    expect(addCalendar(tz(-300), utc('2026-02-01T02:00:00'), 1, 'm')).toBe(utc('2026-03-01T02:00:00'));
  });
});

describe('properties', () => {
  const zones = fc.oneof(
    fc.integer({ min: -720, max: 840 }).map((m) => tz(m)),
    fc.integer({ min: -720, max: 840 }).map((m) => tz(m, TZ_DST_EUROPE)),
    fc.integer({ min: -720, max: 840 }).map((m) => tz(m, TZ_DST_SOUTH)),
  );
  const moments = fc.integer({ min: utc('2000-01-01T00:00:00'), max: utc('2060-01-01T00:00:00') });

  it('startOfDay is at or before the moment, on the same local date, and stable', () => {
    fc.assert(
      fc.property(zones, moments, (z, at) => {
        const sod = startOfDay(z, at);
        expect(sod).toBeLessThanOrEqual(at);
        expect(localDate(z, sod)).toBe(localDate(z, at));
        expect(startOfDay(z, sod)).toBe(sod);
        expect(localDate(z, sod - 1)).not.toBe(localDate(z, at));
      }),
    );
  });

  it('adding n days moves the local date by n days', () => {
    fc.assert(
      fc.property(zones, moments, fc.integer({ min: -2000, max: 2000 }), (z, at, n) => {
        const sod = startOfDay(z, at);
        expect(localDayNumber(z, addCalendar(z, sod, n, 'd')) - localDayNumber(z, sod)).toBe(n);
        expect(startOfDay(z, addCalendar(z, sod, n, 'd'))).toBe(addCalendar(z, sod, n, 'd'));
      }),
    );
  });
});
