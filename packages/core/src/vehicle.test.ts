import { describe, expect, it } from 'vitest';
import { unitUpdateBody } from './contracts/fleets.js';
import {
  fillingOverTank,
  normalizeTags,
  normalizeVin,
  tagChoices,
  tagsFromText,
  unitMatches,
  unitSearchText,
  vinCheckDigit,
  vinIssue,
  vinRefused,
} from './vehicle.js';

describe('VIN (ISO 3779, 49 CFR 565.15)', () => {
  it('accepts published VINs whose check digit is right', () => {
    // The textbook example of 49 CFR 565 guides, and a Honda Accord VIN widely cited as valid.
    expect(vinIssue('1M8GDM9AXKP042788')).toBeNull();
    expect(vinCheckDigit('1M8GDM9AXKP042788')).toBe('X');
    expect(vinIssue('1HGCM82633A004352')).toBeNull();
    expect(vinCheckDigit('1HGCM82633A004352')).toBe('3');
    // All ones: the weights sum to 89, 89 mod 11 = 1.
    expect(vinIssue('11111111111111111')).toBeNull();
  });

  it('warns (does not refuse) on a wrong check digit', () => {
    expect(vinIssue('1M8GDM9A1KP042788')).toBe('check');
    // A European VIN with no check digit (Z in position 9).
    expect(vinIssue('WVWZZZ1JZXW000001')).toBe('check');
    expect(vinRefused('check')).toBe(false);
  });

  it('refuses I, O and Q and other characters, and a length other than 17', () => {
    expect(vinIssue('1M8GDM9AXKP04278O')).toBe('chars');
    expect(vinIssue('IM8GDM9AXKP042788')).toBe('chars');
    expect(vinIssue('1M8GDM9AXKP0427Q8')).toBe('chars');
    expect(vinIssue('1M8GDM9AXKP04278')).toBe('length');
    expect(vinIssue('1M8GDM9AXKP0427881')).toBe('length');
    expect(vinRefused('chars')).toBe(true);
    expect(vinRefused('length')).toBe(true);
  });

  it('reads lower case, spaces and dashes; empty is no VIN', () => {
    expect(normalizeVin(' 1m8gdm9a-xkp 042788 ')).toBe('1M8GDM9AXKP042788');
    expect(vinIssue(' 1m8gdm9a-xkp 042788 ')).toBeNull();
    expect(vinIssue('')).toBeNull();
  });

  it('the update body refuses bad characters and keeps a wrong check digit', () => {
    expect(unitUpdateBody.safeParse({ vp: { vin: '1M8GDM9AXKP04278O' } }).success).toBe(false);
    const parsed = unitUpdateBody.parse({ vp: { vin: '1m8gdm9a1kp042788' } });
    expect(parsed.vp?.vin).toBe('1M8GDM9A1KP042788');
  });
});

describe('tank capacity', () => {
  it('flags a filling larger than the tank, in the same unit', () => {
    expect(fillingOverTank(60_001, 1, 60_000, 1)).toBe(true);
    expect(fillingOverTank(60_000, 1, 60_000, 1)).toBe(false);
  });

  it('converts the filling to the tank unit', () => {
    // 16 US gallons are 60.567 litres: over a 60 l tank; 15 gallons (56.781 l) are not.
    expect(fillingOverTank(16_000, 2, 60_000, 1)).toBe(true);
    expect(fillingOverTank(15_000, 2, 60_000, 1)).toBe(false);
    // 80 litres are 21.134 gallons: over a 20 gallon tank.
    expect(fillingOverTank(80_000, 1, 20_000, 2)).toBe(true);
  });

  it('never flags without a capacity', () => {
    expect(fillingOverTank(999_000, 1, null, null)).toBe(false);
    expect(fillingOverTank(999_000, 1, undefined, undefined)).toBe(false);
  });
});

describe('tags and search', () => {
  it('trims, drops empties and duplicates ignoring case', () => {
    expect(normalizeTags([' Vans ', 'vans', '', 'North  depot'])).toEqual(['Vans', 'North depot']);
    expect(tagsFromText('a; b,A ,')).toEqual(['a', 'b']);
    expect(tagChoices([['b', 'a'], undefined, ['A', 'c']])).toEqual(['a', 'b', 'c']);
  });

  it('search matches name, plate and VIN ignoring case, spaces and dashes', () => {
    const unit = { nm: 'Sprinter 3', vp: { pl: 'B-XY 123', vin: '1M8GDM9AXKP042788' } };
    expect(unitMatches(unit, 'sprinter')).toBe(true);
    expect(unitMatches(unit, 'bxy123')).toBe(true);
    expect(unitMatches(unit, 'xy 12')).toBe(true);
    expect(unitMatches(unit, 'kp0427')).toBe(true);
    expect(unitMatches(unit, 'zz')).toBe(false);
    expect(unitMatches(unit, '  ')).toBe(true);
  });

  it("gives the lists that name units a unit's plate and VIN to search", () => {
    expect(unitSearchText({ pl: 'B-XY 123', vin: '1M8GDM9AXKP042788' })).toBe(
      'B-XY 123 BXY123 1M8GDM9AXKP042788',
    );
    expect(unitSearchText({ pl: '', vin: '' })).toBe('');
    expect(unitSearchText(undefined)).toBe('');
  });
});
