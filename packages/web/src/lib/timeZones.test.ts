import { isSetupTz, TZ_DST_EUROPE, TZ_DST_SOUTH, tzOffsetMinutes } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { guessTimeZone, TIME_ZONES, tzCode, utcOffsetText } from './timeZones.ts';

describe('time-zone choices of the set-up screen', () => {
  it('encodes every choice as a tz code the server accepts, with distinct codes', () => {
    for (const zone of TIME_ZONES) expect(isSetupTz(zone.tz), zone.cities).toBe(true);
    expect(new Set(TIME_ZONES.map((z) => z.tz)).size).toBe(TIME_ZONES.length);
  });

  it('reads back as the offset of core timezone.ts, summer time included', () => {
    const winter = Date.UTC(2026, 0, 15) / 1000;
    const summer = Date.UTC(2026, 6, 15) / 1000;
    expect(tzCode(-300, 'north')).toBe(((-300 & 0xffff) | TZ_DST_EUROPE) >>> 0);
    expect(tzOffsetMinutes(tzCode(-300, 'north'), winter)).toBe(-300);
    expect(tzOffsetMinutes(tzCode(-300, 'north'), summer)).toBe(-240);
    expect(tzOffsetMinutes(tzCode(600, 'south'), winter)).toBe(660);
    expect(tzOffsetMinutes(tzCode(600, 'south'), summer)).toBe(600);
    expect(tzCode(600, 'south') & TZ_DST_SOUTH).not.toBe(0);
  });

  it('guesses the browser zone from its January and July offsets', () => {
    expect(guessTimeZone(120, 180)).toMatchObject({ offset: 120, rule: 'north' });
    expect(guessTimeZone(660, 600)).toMatchObject({ offset: 600, rule: 'south' });
    expect(guessTimeZone(330, 330)).toMatchObject({ offset: 330, rule: 'none' });
    expect(guessTimeZone(17, 17)).toMatchObject({ offset: 0, rule: 'none' });
  });

  it('writes offsets with hours and minutes', () => {
    expect(utcOffsetText(-300)).toBe('UTC\u221205:00');
    expect(utcOffsetText(345)).toBe('UTC+05:45');
    expect(utcOffsetText(0)).toBe('UTC+00:00');
  });
});
