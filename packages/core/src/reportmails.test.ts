import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  latestReportMailSlot,
  localToUnix,
  nextReportMailDue,
  type ReportMailSchedule,
  reportMailPeriod,
} from './reportmails.js';
import { TZ_DST_EUROPE, TZ_DST_SOUTH, tzOffsetMinutes } from './timezone.js';

const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;
const tz = (minutes: number, flags = 0) => (minutes & 0xffff) | flags;
const BERLIN = tz(60, TZ_DST_EUROPE);
const SANTIAGO = tz(-240, TZ_DST_SOUTH);
const KOLKATA = tz(330);

const daily = (hour: number): ReportMailSchedule => ({ every: 'daily', weekday: 1, monthday: 1, hour });
const weekly = (weekday: number, hour: number): ReportMailSchedule => ({
  every: 'weekly',
  weekday,
  monthday: 1,
  hour,
});
const monthly = (monthday: number | 'last', hour: number): ReportMailSchedule => ({
  every: 'monthly',
  weekday: 1,
  monthday,
  hour,
});
/** The local wall clock of a moment, as ISO text without zone. */
const local = (zone: number, at: number) =>
  new Date((at + tzOffsetMinutes(zone, at) * 60) * 1000).toISOString().slice(0, 16);

describe('nextReportMailDue', () => {
  it('is the schedule hour of the same day when still ahead, else of the next day', () => {
    expect(nextReportMailDue(tz(0), daily(7), utc('2026-05-10T06:59:59'))).toBe(utc('2026-05-10T07:00:00'));
    expect(nextReportMailDue(tz(0), daily(7), utc('2026-05-10T07:00:00'))).toBe(utc('2026-05-11T07:00:00'));
  });

  it('reads the hour in the fleet zone (offsets east and west, half hours)', () => {
    expect(nextReportMailDue(KOLKATA, daily(6), utc('2026-05-10T00:00:00'))).toBe(utc('2026-05-10T00:30:00'));
    expect(nextReportMailDue(tz(-300), daily(23), utc('2026-05-10T00:00:00'))).toBe(
      utc('2026-05-10T04:00:00'),
    );
  });

  it('keeps the local hour across the European daylight-saving changes', () => {
    // Summer time: 07:00 local is 05:00 UTC; winter time 06:00 UTC.
    expect(nextReportMailDue(BERLIN, daily(7), utc('2026-03-28T12:00:00'))).toBe(utc('2026-03-29T05:00:00'));
    expect(nextReportMailDue(BERLIN, daily(7), utc('2026-03-27T12:00:00'))).toBe(utc('2026-03-28T06:00:00'));
    expect(nextReportMailDue(BERLIN, daily(7), utc('2026-10-24T12:00:00'))).toBe(utc('2026-10-25T06:00:00'));
  });

  it('sends an hour skipped by the spring change at the change, an hour repeated in autumn once', () => {
    // 2026-03-29 02:00 local does not exist in Berlin (01:00 UTC the clocks jump from 02:00 to 03:00).
    const spring = nextReportMailDue(BERLIN, daily(2), utc('2026-03-28T12:00:00'));
    expect(spring).toBe(utc('2026-03-29T01:00:00'));
    expect(local(BERLIN, spring)).toBe('2026-03-29T03:00');
    // 2026-10-25 02:00 local happens at 00:00 and 01:00 UTC: the first, and only once.
    const autumn = nextReportMailDue(BERLIN, daily(2), utc('2026-10-24T12:00:00'));
    expect(autumn).toBe(utc('2026-10-25T00:00:00'));
    expect(nextReportMailDue(BERLIN, daily(2), autumn)).toBe(utc('2026-10-26T01:00:00'));
  });

  it('follows the southern rule (summer outside March to October)', () => {
    // Santiago: −4 h, −3 h in the southern summer.
    expect(nextReportMailDue(SANTIAGO, daily(8), utc('2026-01-10T00:00:00'))).toBe(
      utc('2026-01-10T11:00:00'),
    );
    expect(nextReportMailDue(SANTIAGO, daily(8), utc('2026-07-10T00:00:00'))).toBe(
      utc('2026-07-10T12:00:00'),
    );
  });

  it('finds the weekday (ISO, Monday 1 … Sunday 7)', () => {
    // 2026-05-10 is a Sunday.
    expect(nextReportMailDue(tz(0), weekly(1, 6), utc('2026-05-10T12:00:00'))).toBe(
      utc('2026-05-11T06:00:00'),
    );
    expect(nextReportMailDue(tz(0), weekly(7, 6), utc('2026-05-10T05:00:00'))).toBe(
      utc('2026-05-10T06:00:00'),
    );
    expect(nextReportMailDue(tz(0), weekly(7, 6), utc('2026-05-10T06:00:00'))).toBe(
      utc('2026-05-17T06:00:00'),
    );
  });

  it('finds the month day, and the last day of short months and of leap-year February', () => {
    expect(nextReportMailDue(tz(0), monthly(28, 0), utc('2026-01-28T00:00:00'))).toBe(
      utc('2026-02-28T00:00:00'),
    );
    expect(nextReportMailDue(tz(0), monthly('last', 9), utc('2026-01-31T10:00:00'))).toBe(
      utc('2026-02-28T09:00:00'),
    );
    expect(nextReportMailDue(tz(0), monthly('last', 9), utc('2028-02-01T00:00:00'))).toBe(
      utc('2028-02-29T09:00:00'),
    );
    expect(nextReportMailDue(tz(0), monthly('last', 9), utc('2026-04-01T00:00:00'))).toBe(
      utc('2026-04-30T09:00:00'),
    );
    expect(nextReportMailDue(tz(0), monthly(1, 0), utc('2026-12-15T00:00:00'))).toBe(
      utc('2027-01-01T00:00:00'),
    );
  });

  it('is always later, on a send day, at the local hour (any zone, schedule and moment)', () => {
    const zones = [tz(0), BERLIN, SANTIAGO, KOLKATA, tz(-600), tz(840)];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: utc('2020-01-01T00:00:00'), max: utc('2035-01-01T00:00:00') }),
        fc.constantFrom('daily', 'weekly', 'monthly'),
        fc.integer({ min: 1, max: 7 }),
        fc.oneof(fc.integer({ min: 1, max: 28 }), fc.constant('last' as const)),
        fc.integer({ min: 0, max: 23 }),
        (zone, after, every, weekday, monthday, hour) => {
          const s: ReportMailSchedule = { every, weekday, monthday, hour };
          const next = nextReportMailDue(zone, s, after);
          expect(next).toBeGreaterThan(after);
          expect(next - after).toBeLessThanOrEqual(32 * 86400);
          const wall = local(zone, next);
          // The local hour, unless it was skipped by the spring change (then one hour later).
          const h = Number(wall.slice(11, 13));
          expect(h === hour || h === hour + 1).toBe(true);
          expect(wall.slice(14, 16)).toBe('00');
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('localToUnix', () => {
  it('converts a local wall clock back with the offset in force', () => {
    expect(localToUnix(BERLIN, utc('2026-07-01T12:00:00'))).toBe(utc('2026-07-01T10:00:00'));
    expect(localToUnix(BERLIN, utc('2026-01-01T12:00:00'))).toBe(utc('2026-01-01T11:00:00'));
    expect(localToUnix(KOLKATA, utc('2026-01-01T05:30:00'))).toBe(utc('2026-01-01T00:00:00'));
  });
});

describe('latestReportMailSlot', () => {
  it('skips slots missed while no server ran: the latest one at or before now', () => {
    const due = utc('2026-05-01T07:00:00');
    expect(latestReportMailSlot(tz(0), daily(7), due, utc('2026-05-04T08:00:00'))).toBe(
      utc('2026-05-04T07:00:00'),
    );
    expect(latestReportMailSlot(tz(0), daily(7), due, utc('2026-05-01T07:00:00'))).toBe(due);
  });
});

describe('reportMailPeriod', () => {
  it('covers the day, the seven days, or the calendar month before the send day', () => {
    const at = utc('2026-03-02T06:00:00');
    expect(reportMailPeriod(tz(0), 'daily', at)).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(reportMailPeriod(tz(0), 'weekly', at)).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(reportMailPeriod(tz(0), 'monthly', at)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(reportMailPeriod(tz(0), 'monthly', utc('2028-03-01T00:00:00'))).toEqual({
      from: '2028-02-01',
      to: '2028-02-29',
    });
    expect(reportMailPeriod(tz(0), 'monthly', utc('2027-01-01T00:00:00'))).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
    });
  });

  it('takes the send day in the fleet zone', () => {
    // 23:30 UTC on March 1 is already March 2 in Kolkata.
    expect(reportMailPeriod(KOLKATA, 'daily', utc('2026-03-01T23:30:00'))).toEqual({
      from: '2026-03-01',
      to: '2026-03-01',
    });
    expect(reportMailPeriod(tz(0), 'daily', utc('2026-03-01T23:30:00'))).toEqual({
      from: '2026-02-28',
      to: '2026-02-28',
    });
  });
});
