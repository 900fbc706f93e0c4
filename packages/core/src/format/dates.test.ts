import dayjs from 'dayjs';
import 'dayjs/locale/de.js';
import 'dayjs/locale/ru.js';
import { describe, expect, it } from 'vitest';
import { TZ_DST_EUROPE } from '../timezone.js';
import {
  fleetZoneLabel,
  formatCalendarDay,
  formatDate,
  formatDateTime,
  formatFleetDate,
  formatFleetDateTime,
  formatFleetTime,
  requestDate,
  viewerOffsetMinutes,
} from './dates.js';

describe('dates on the clock of this process (spec §5)', () => {
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
    expect(formatDate(t, 'DD MMM YYYY', 'ru')).toBe('04 мар. 2026');
    expect(formatDate(dayjs('2026-05-04').unix(), 'DD MMM YYYY', 'ru')).toBe('04 мая 2026');
  });
  it('falls back to English month names for a locale that is not loaded', () => {
    expect(formatDate(t, 'DD MMM YYYY', 'xx')).toBe('04 Mar 2026');
  });
  it('adds the time format', () => {
    expect(formatDateTime(t, 'YYYY-MM-DD', 'HH:mm')).toBe('2026-03-04 05:06');
    expect(formatDateTime(t, 'YYYY-MM-DD', 'hh:mm:ss A')).toBe('2026-03-04 05:06:07 AM');
    expect(formatDateTime(t, 'DD.MM.YYYY', 'HH:mm:ss', 'ru')).toBe('04.03.2026 05:06:07');
  });
  it('requests use YYYY-MM-DD', () => {
    expect(requestDate(t)).toBe('2026-03-04');
  });
});

describe("dates on the fleet's clock (spec §5 time zone)", () => {
  // 2026-03-04 23:30:00 UTC
  const t = Date.UTC(2026, 2, 4, 23, 30) / 1000;
  const moscow = 180;
  const newYork = -300 & 0xffff;
  it('shows the calendar day of the fleet zone, whatever the zone of the process', () => {
    expect(formatFleetDate(t, 0, 'DD.MM.YYYY')).toBe('04.03.2026');
    expect(formatFleetDate(t, moscow, 'DD.MM.YYYY')).toBe('05.03.2026');
    expect(formatFleetDate(t, newYork, 'YYYY-MM-DD')).toBe('2026-03-04');
    expect(formatFleetDate(t, moscow, 'DD MMM YYYY', 'ru')).toBe('05 мар. 2026');
    expect(formatFleetDate(t, moscow, 'DD MMM YYYY', 'de')).toBe('05 März 2026');
  });
  it('shows the time of the fleet zone, with daylight saving', () => {
    expect(formatFleetDateTime(t, moscow, 'DD.MM.YYYY', 'HH:mm')).toBe('05.03.2026 02:30');
    expect(formatFleetDateTime(t, newYork, 'MM-DD-YYYY', 'hh:mm A')).toBe('03-04-2026 06:30 PM');
    const summer = Date.UTC(2026, 6, 1, 12, 0, 5) / 1000;
    expect(formatFleetDateTime(summer, 60 | TZ_DST_EUROPE, 'YYYY-MM-DD', 'HH:mm:ss')).toBe(
      '2026-07-01 14:00:05',
    );
    expect(formatFleetDateTime(t, 60 | TZ_DST_EUROPE, 'YYYY-MM-DD', 'HH:mm:ss')).toBe('2026-03-05 00:30:00');
  });
  it('formats a calendar day given as text', () => {
    expect(formatCalendarDay('2026-03-04', 'DD.MM.YYYY')).toBe('04.03.2026');
    expect(formatCalendarDay('2026-05-04', 'DD MMM YYYY', 'ru')).toBe('04 мая 2026');
    expect(formatCalendarDay('2026-12-31', 'MM-DD-YYYY')).toBe('12-31-2026');
  });
});

describe('one clock: fleet times name the zone when the reader is elsewhere (docs/product.md)', () => {
  const t = Date.UTC(2026, 2, 4, 23, 30) / 1000;
  const moscow = 180;
  it('names the zone by its UTC offset at that moment', () => {
    expect(fleetZoneLabel(0, t)).toBe('UTC');
    expect(fleetZoneLabel(moscow, t)).toBe('UTC+3');
    expect(fleetZoneLabel(-300 & 0xffff, t)).toBe('UTC\u22125');
    expect(fleetZoneLabel(330, t)).toBe('UTC+5:30');
    expect(fleetZoneLabel(60 | TZ_DST_EUROPE, Date.UTC(2026, 6, 1) / 1000)).toBe('UTC+2');
  });
  it('shows the fleet clock alone when the reader is on it, and names the zone otherwise', () => {
    expect(formatFleetTime(t, moscow, 'YYYY-MM-DD', 'HH:mm', 'en', 180)).toBe('2026-03-05 02:30');
    expect(formatFleetTime(t, moscow, 'YYYY-MM-DD', 'HH:mm', 'en', 60)).toBe('2026-03-05 02:30 (UTC+3)');
    expect(formatFleetTime(t, moscow, 'YYYY-MM-DD', 'HH:mm', 'en', null)).toBe('2026-03-05 02:30 (UTC+3)');
  });
  it('compares the offsets at the moment shown, daylight saving included', () => {
    const berlin = 60 | TZ_DST_EUROPE;
    const summer = Date.UTC(2026, 6, 1, 12) / 1000;
    expect(formatFleetTime(summer, berlin, 'YYYY-MM-DD', 'HH:mm', 'en', 120)).toBe('2026-07-01 14:00');
    expect(formatFleetTime(t, berlin, 'YYYY-MM-DD', 'HH:mm', 'en', 120)).toBe('2026-03-05 00:30 (UTC+1)');
  });
  it("reads this process's offset", () => {
    expect(viewerOffsetMinutes(t)).toBe(-new Date(t * 1000).getTimezoneOffset() || 0);
  });
});
