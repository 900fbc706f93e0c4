import { describe, expect, it } from 'vitest';
import { FuelMeasure, LANGUAGES, MeasureSystem } from '../constants.js';
import { consumptionLabel, formatConsumption } from './consumption.js';
import {
  currencyCode,
  formatMoney,
  formatMoneyAmount,
  formatMoneyRate,
  formatNumber,
  formatWhole,
} from './number.js';
import { formatDistance } from './units.js';

/**
 * The reader's number formats in every interface language (docs/product.md "Numbers, money and times"):
 * thousands grouping, decimal separator and money. The expected separators are written out per language
 * (CLDR), not read from Intl, so that a formatter that ignores the locale fails here.
 */

const NBSP = '\u00a0';
const NNBSP = '\u202f';

/** Group separator, decimal separator, and whether 4-digit numbers stay ungrouped (CLDR minimum grouping 2). */
const SEPARATORS: Record<(typeof LANGUAGES)[number], [group: string, decimal: string, minGroup2?: true]> = {
  ru: [NBSP, ','],
  en: [',', '.'],
  es: ['.', ',', true],
  ro: ['.', ','],
  nl: ['.', ','],
  'pt-br': ['.', ','],
  bg: [NBSP, ',', true],
  et: [NBSP, ',', true],
  az: ['.', ','],
  hr: ['.', ','],
  fi: [NBSP, ','],
  fr: [NNBSP, ','],
  tr: ['.', ','],
  pl: [NBSP, ',', true],
  hu: [NBSP, ',', true],
  de: ['.', ','],
  it: ['.', ',', true],
  sr: ['.', ','],
  cs: [NBSP, ','],
  el: ['.', ','],
  th: [',', '.'],
  uk: [NBSP, ','],
  lt: [NBSP, ','],
};

/** Where the euro sign goes and how the amount is spaced from it. */
const EURO: Record<(typeof LANGUAGES)[number], string> = {
  ru: `1${NBSP}467,35${NBSP}€`,
  en: '€1,467.35',
  es: `1467,35${NBSP}€`,
  ro: `1.467,35${NBSP}EUR`,
  nl: `€${NBSP}1.467,35`,
  'pt-br': `€${NBSP}1.467,35`,
  bg: `1467,35${NBSP}€`,
  et: `1467,35${NBSP}€`,
  az: `1.467,35${NBSP}€`,
  hr: `1.467,35${NBSP}€`,
  fi: `1${NBSP}467,35${NBSP}€`,
  fr: `1${NNBSP}467,35${NBSP}€`,
  tr: '€1.467,35',
  pl: `1467,35${NBSP}€`,
  hu: `1467,35${NBSP}EUR`,
  de: `1.467,35${NBSP}€`,
  it: `1467,35${NBSP}€`,
  sr: `1.467,35${NBSP}€`,
  cs: `1${NBSP}467,35${NBSP}€`,
  el: `1.467,35${NBSP}€`,
  th: '€1,467.35',
  uk: `1${NBSP}467,35${NBSP}EUR`,
  lt: `1${NBSP}467,35${NBSP}€`,
};

describe('number formats in all 23 interface languages', () => {
  it('lists every language once', () => {
    expect(Object.keys(SEPARATORS).sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(EURO).sort()).toEqual([...LANGUAGES].sort());
  });

  for (const lang of LANGUAGES) {
    const [group, decimal, minGroup2] = SEPARATORS[lang];
    describe(lang, () => {
      it('groups thousands and writes the decimal separator of the language', () => {
        expect(formatNumber(1234567.891, { locale: lang })).toBe(`1${group}234${group}567${decimal}891`);
        expect(formatNumber(2.5, { locale: lang })).toBe(`2${decimal}5`);
        expect(formatNumber(1234.5, { locale: lang, decimals: 0 })).toBe(minGroup2 ? '1235' : `1${group}235`);
        expect(formatNumber(-0.0001, { locale: lang })).toBe('0');
      });
      it('shows counters and remaining values as whole numbers', () => {
        expect(formatWhole(625.616, lang)).toBe('626');
        expect(formatWhole(624083.4, lang)).toBe(`624${group}083`);
        // "Überfällig: 624.083 km" read as 624 thousand km: a whole counter never shows a decimal separator.
        expect(formatWhole(624.083, lang)).toBe('624');
        expect(formatDistance(12_400_000, MeasureSystem.meters, lang, { decimals: 0, locale: lang })).toMatch(
          new RegExp(`^12${group}400${group}000 `),
        );
      });
      it('writes money with the currency of an ISO code and its minor units', () => {
        expect(formatMoney(1467.349, 'EUR', { locale: lang })).toBe(EURO[lang]);
        expect(formatMoney(1467.349, 'eur', { locale: lang })).toBe(EURO[lang]);
        // Yen has no minor unit.
        expect(formatMoney(1467.6, 'JPY', { locale: lang })).not.toContain(decimal === ',' ? ',' : '.');
        // Free text: two fraction digits in the language's separators, the text after.
        expect(formatMoney(1467.349, 'руб.', { locale: lang })).toBe(
          `${minGroup2 ? '1467' : `1${group}467`}${decimal}35 руб.`,
        );
      });
      it('writes consumption with the separators of the language', () => {
        const perHour = formatConsumption(14.25, 'hours', MeasureSystem.meters, FuelMeasure.liter, lang);
        expect(perHour.startsWith(`14${decimal}3 `)).toBe(true);
        expect(perHour).toContain('/');
        expect(perHour).not.toContain('100');
      });
    });
  }
});

describe('money rounding and currency codes', () => {
  it('rounds exact thousandths half away from zero to the minor units', () => {
    expect(formatMoney(1.005, 'USD', { locale: 'en' })).toBe('$1.01');
    expect(formatMoney(-1.005, 'USD', { locale: 'en' })).toBe('-$1.01');
    expect(formatMoney(0, 'EUR', { locale: 'de' })).toBe(`0,00${NBSP}€`);
    expect(formatMoney(1467.5, 'JPY', { locale: 'en' })).toBe('¥1,468');
  });
  it('recognises ISO 4217 codes only', () => {
    expect(currencyCode('EUR')).toBe('EUR');
    expect(currencyCode(' usd ')).toBe('USD');
    expect(currencyCode('€')).toBeNull();
    expect(currencyCode('руб.')).toBeNull();
    expect(currencyCode('XYZ')).toBeNull();
    expect(currencyCode('')).toBeNull();
  });
  it('writes only the amount when the fleet has no currency text', () => {
    expect(formatMoney(12.3, '', { locale: 'en' })).toBe('12.30');
  });
  it('keeps the neutral spec §9 form without a locale', () => {
    expect(formatMoney(1250.5, 'EUR')).toBe('1 250.5 EUR');
    expect(formatNumber(1234567.891)).toBe('1 234 567.891');
  });
});

describe('consumption labels', () => {
  it('names fuel per engine hour for units counting hours, whatever the distance unit', () => {
    expect(consumptionLabel('en', 'hours', MeasureSystem.meters, FuelMeasure.liter)).toBe('L/h');
    expect(consumptionLabel('en', 'hours', MeasureSystem.miles, FuelMeasure.gallon)).toBe('gal/h');
    expect(consumptionLabel('ru', 'hours', MeasureSystem.meters, FuelMeasure.liter)).toBe('л/ч');
  });
  it('names fuel per 100 km or distance per fuel unit otherwise', () => {
    expect(consumptionLabel('en', 'distance', MeasureSystem.meters, FuelMeasure.liter)).toBe('L/100 km');
    expect(consumptionLabel('en', 'distance', MeasureSystem.miles, FuelMeasure.gallon)).toBe('mi/gal');
    expect(formatConsumption(8.44, 'distance', MeasureSystem.meters, FuelMeasure.liter, 'de')).toBe(
      '8,4 l/100 km',
    );
    expect(formatConsumption(null, 'hours', 0, 1, 'en')).toBe('');
  });
});

describe('money amounts under a heading that names the currency', () => {
  it('keeps the minor units of the currency and the separators of the language', () => {
    for (const lang of LANGUAGES) {
      const [group, decimal, minGroup2] = SEPARATORS[lang];
      expect(formatMoneyAmount(1467.349, 'EUR', lang)).toBe(
        `${minGroup2 ? '1467' : `1${group}467`}${decimal}35`,
      );
      expect(formatMoneyAmount(21467.5, 'JPY', lang)).toBe(`21${group}468`);
      expect(formatMoneyAmount(2.005, 'руб.', lang)).toBe(`2${decimal}01`);
    }
  });
});

describe('unit prices and rates', () => {
  it('keep up to three decimals, with the currency sign of an ISO code', () => {
    expect(formatMoneyRate(0.5664, 'EUR', 'en')).toBe('€0.566');
    expect(formatMoneyRate(0.5, 'EUR', 'en')).toBe('€0.50');
    expect(formatMoneyRate(1234.5, 'EUR', 'de')).toBe(`1.234,50${NBSP}€`);
    expect(formatMoneyRate(12.345, 'EUR', 'de')).toBe(`12,345${NBSP}€`);
    expect(formatMoneyRate(0.566, 'руб.', 'ru')).toBe('0,566 руб.');
    expect(formatMoneyRate(7.25, '', 'en')).toBe('7.25');
    expect(formatMoneyRate(3.5, 'JPY', 'en')).toBe('¥3.5');
  });
});
