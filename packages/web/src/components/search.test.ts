import { describe, expect, it } from 'vitest';
import { canCreate, filterOptions, matchesSearch, normalizeForSearch } from './search.ts';

const options = [
  { label: 'Oil change', value: 'oil' },
  { label: 'Pneumatic tyres', value: 'tyres' },
  { label: 'Café stop', value: 'cafe', isDisabled: true },
];

describe('normalizeForSearch (spec §5 select search)', () => {
  it('ignores case and accents', () => {
    expect(normalizeForSearch('Café ÉLAN Šupa')).toBe('cafe elan supa');
    expect(normalizeForSearch('Straße Øl Łódź')).toBe('strasse ol lodz');
  });
  it('matches anywhere', () => {
    expect(matchesSearch('Oil change', 'CHAN')).toBe(true);
    expect(matchesSearch('Café stop', 'cafe')).toBe(true);
    expect(matchesSearch('Cafe stop', 'café')).toBe(true);
    expect(matchesSearch('Oil change', 'tyre')).toBe(false);
    expect(matchesSearch('anything', '  ')).toBe(true);
  });
  it('filters options by label', () => {
    expect(filterOptions(options, 'e').map((o) => o.value)).toEqual(['oil', 'tyres', 'cafe']);
    expect(filterOptions(options, 'TYR').map((o) => o.value)).toEqual(['tyres']);
    expect(filterOptions(options, 'zzz')).toEqual([]);
  });
});

describe('canCreate (spec §5 creatable select)', () => {
  it('needs non-empty text', () => {
    expect(canCreate('', options)).toBe(false);
    expect(canCreate('   ', options)).toBe(false);
  });
  it('refuses text equal to a label or value, case-insensitive', () => {
    expect(canCreate('oil change', options)).toBe(false);
    expect(canCreate('OIL', options)).toBe(false);
    expect(canCreate('Tyres', options)).toBe(false);
    expect(canCreate(' café STOP ', options)).toBe(false);
  });
  it('offers anything else, including partial matches', () => {
    expect(canCreate('oil', [])).toBe(true);
    expect(canCreate('Oil filter', options)).toBe(true);
    expect(canCreate('cafe stop', options)).toBe(true);
  });
});
