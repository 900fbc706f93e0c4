import { describe, expect, it } from 'vitest';
import {
  columnTitle,
  columnUnit,
  displayNumber,
  formatCell,
  formatTotal,
  type ReportFormatContext,
  sortValue,
} from './columns.ts';

const WORDS: Record<string, string> = {
  'objects.engineHoursUnit': 'e.h.',
  'reports.ot.u': 'Unit',
  'reports.status.overdue': 'Overdue',
  'reports.lineType.2': 'Part',
};
const km: ReportFormatContext = {
  lang: 'en',
  ms: 0,
  fm: 1,
  currency: 'EUR',
  dateFormat: 'DD.MM.YYYY',
  locale: 'en',
  t: (key) => WORDS[key] ?? key,
};
const miles: ReportFormatContext = { ...km, ms: 1, fm: 2, currency: 'USD' };

describe('report columns', () => {
  it('title each column with the fleet unit', () => {
    expect(columnTitle('Mileage', 'distance', km)).toBe('Mileage, km');
    expect(columnTitle('Mileage', 'distance', miles)).toBe('Mileage, mi');
    expect(columnTitle('Cost', 'money', km)).toBe('Cost, EUR');
    expect(columnTitle('Fuel volume', 'volume', km)).toBe('Fuel volume, L');
    expect(columnTitle('Fuel volume', 'volume', miles)).toBe('Fuel volume, gal');
    expect(columnUnit('consumption', km)).toBe('L/100 km');
    expect(columnUnit('consumption', miles)).toBe('mi/gal');
    expect(columnUnit('cost_per_distance', km)).toBe('EUR/km');
    expect(columnUnit('cost_per_distance', miles)).toBe('USD/mi');
    expect(columnUnit('hours', km)).toBe('e.h.');
    expect(columnTitle('Object', 'text', km)).toBe('Object');
  });

  it('format values by kind (spec §9 number display)', () => {
    // In the user's language, money with the currency's minor units (docs/product.md).
    expect(formatCell('money', 1234.5, km)).toBe('1,234.50');
    expect(formatCell('money', 1467.349, km)).toBe('1,467.35');
    expect(formatCell('money', 1467.349, { ...km, lang: 'de' })).toBe('1.467,35');
    expect(formatCell('money', 0.125, km)).toBe('0.13');
    expect(formatCell('count', 12345, km)).toBe('12,345');
    expect(formatCell('number', 2.5, km)).toBe('2.5');
    expect(formatCell('number', 2.5, { ...km, lang: 'de' })).toBe('2,5');
    expect(formatCell('distance', 160934.4, km)).toBe('160,934');
    expect(formatCell('distance', 160934.4, miles)).toBe('100,000');
    expect(formatCell('distance', 624083.4, { ...km, lang: 'de' })).toBe('624.083');
    expect(formatCell('hours', 1500.25, km)).toBe('1,500');
    expect(formatCell('consumption', 8.449, km)).toBe('8.4');
    expect(formatCell('date', '2026-02-03', km)).toBe('03.02.2026');
    expect(formatCell('date', '2026-02-03', { ...km, dateFormat: 'YYYY/MM/DD' })).toBe('2026/02/03');
    expect(formatCell('object_type', 'u', km)).toBe('Unit');
    expect(formatCell('status', 'overdue', km)).toBe('Overdue');
    expect(formatCell('line_type', 2, km)).toBe('Part');
    expect(formatCell('text', 'Oil change', km)).toBe('Oil change');
    expect(formatCell('money', null, km)).toBe('');
  });

  it('convert cost per km to cost per mile for fleets in miles', () => {
    expect(displayNumber('cost_per_distance', 0.5, km.ms)).toBe(0.5);
    expect(displayNumber('cost_per_distance', 0.5, miles.ms)).toBeCloseTo(0.804672, 6);
    expect(formatCell('cost_per_distance', 0.5, miles)).toBe('0.805');
    expect(displayNumber('volume', 10, miles.ms)).toBe(10);
  });

  it('format totals with their unit', () => {
    expect(formatTotal('money', 1250.5, km)).toBe('€1,250.50');
    expect(formatTotal('money', 1250.5, { ...km, lang: 'de' })).toBe('1.250,50\u00a0€');
    expect(formatTotal('distance', 1609.344, miles)).toBe('1,000 mi');
    expect(formatTotal('count', 3, km)).toBe('3');
    expect(formatTotal('consumption', null, km)).toBe('–');
  });

  it('sort numbers by their value and coded kinds by their words', () => {
    expect(sortValue('distance', 1609.344, miles)).toBe(1000);
    expect(sortValue('status', 'overdue', km)).toBe('Overdue');
    expect(sortValue('text', null, km)).toBeNull();
    expect(sortValue('date', '2026-02-03', km)).toBe('2026-02-03');
  });
});
