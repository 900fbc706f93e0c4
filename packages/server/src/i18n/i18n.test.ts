import fs from 'node:fs';
import path from 'node:path';
import {
  FuelMeasure,
  formatDate,
  formatMoney,
  formatNumber,
  KM_PER_MILE,
  localDate,
  MeasureSystem,
  unitLabel,
} from '@fleetkeep/core';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatterFor } from './formatter.js';
import { LOCALES_DIR } from './locales.js';
import { createTranslate, translator } from './translator.js';

/** A locale file read directly, as the browser gets it at /i18n/{file}.json. */
function localeFile(file: string): Record<string, Record<string, string>> {
  const dir = path.resolve(import.meta.dirname, '../../../core/locales');
  return JSON.parse(fs.readFileSync(path.join(dir, `${file}.json`), 'utf8'));
}
const ru = localeFile('ru');
const en = localeFile('en');

describe('server translator', () => {
  it('reads the one home of the locale files', () => {
    expect(LOCALES_DIR).toBe(path.resolve(import.meta.dirname, '../../../core/locales'));
  });

  it("gives a Russian user the Russian locale file's text", () => {
    const t = translator('ru');
    for (const key of ['common.save', 'tokens.create', 'objects.engineHoursUnit', 'menu.services'] as const) {
      const [group, name] = key.split('.') as [string, string];
      expect(t(key), key).toBe(ru[group]?.[name]);
      expect(t(key)).not.toBe(en[group]?.[name]);
    }
    expect(t('objects.inValue', { value: '5 км' })).toBe(ru.objects!.inValue!.replace('{{value}}', '5 км'));
    expect(t('tokens.deleteConfirm', { name: '<a&b>' })).toBe('Удалить токен «<a&b>»?');
  });

  it('chooses plural forms through Intl (spec §9 plural rules)', () => {
    const t = translator('ru');
    expect(t('tokens.count', { count: 1 })).toBe('1 токен');
    expect(t('tokens.count', { count: 3 })).toBe('3 токена');
    expect(t('tokens.count', { count: 5 })).toBe('5 токенов');
    expect(t('tokens.count', { count: 21 })).toBe('21 токен');
    expect(translator('en')('tokens.count', { count: 1 })).toBe('1 token');
    expect(translator('en')('tokens.count', { count: 2 })).toBe('2 tokens');
  });

  it('reads Brazilian Portuguese from br.json, in any spelling', () => {
    const br = localeFile('br');
    expect(translator('pt-br')('common.save')).toBe(br.common!.save);
    expect(translator('PT-BR')('objects.engineHoursUnit')).toBe(br.objects!.engineHoursUnit);
    expect(translator('br')('common.cancel')).toBe(br.common!.cancel);
  });

  it('falls back to English for unknown languages and unknown keys', () => {
    for (const lang of ['ja', '', null, undefined, 'constructor'])
      expect(translator(lang)('common.save'), String(lang)).toBe(en.common!.save);
    expect(translator('ru')('no.such.key')).toBe('no.such.key');
  });

  it('falls back to English for a key the language lacks', () => {
    const t = createTranslate('de', { a: { x: 'Deutsch' } }, { a: { x: 'English', y: 'Only English' } });
    expect(t('a.x')).toBe('Deutsch');
    expect(t('a.y')).toBe('Only English');
  });

  it('builds each language once', () => {
    expect(translator('ru')).toBe(translator('RU'));
    expect(translator('ja')).toBe(translator('en'));
  });
});

describe("formatterFor: spec §9 display bound to a user and a fleet, in the reader's locale", () => {
  // 2026-03-04 23:30 UTC: already 5 March in Moscow (UTC+3)
  const t = Date.UTC(2026, 2, 4, 23, 30) / 1000;
  const moscow = 180;
  const russian = formatterFor({
    lang: 'ru',
    dateFormat: 'DD MMM YYYY',
    timeFormat: 'HH:mm',
    fleet: { cur: 'руб.', ms: MeasureSystem.meters, fm: FuelMeasure.liter, tz: moscow },
  });

  it('writes numbers, money and engine hours as the Russian screen does', () => {
    // Russian grouping (no-break space) and decimal comma (docs/product.md "Numbers, money and times").
    expect(russian.number(1234567.891)).toBe('1\u00a0234\u00a0567,891');
    expect(russian.number(1_500_000, { suffix: true })).toBe('1,5M');
    expect(russian.number(0.3, { lessThanOne: true })).toBe('<1');
    // A currency text that is no ISO code: two fraction digits, the text after.
    expect(russian.money(1250.5)).toBe('1\u00a0250,50 руб.');
    expect(russian.moneyAmount(1250.5)).toBe('1\u00a0250,50');
    // Counters are whole.
    expect(russian.engineHours(12345.6)).toBe(`12\u00a0346 ${ru.objects!.engineHoursUnit}`);
    expect(russian.engineHours(12345.6)).toBe('12\u00a0346 м.ч.');
    // the web's screens (formatMoney with the fleet currency and the user's language)
    expect(russian.money(1250.5)).toBe(formatMoney(1250.5, 'руб.', { locale: 'ru' }));
    const rub = formatterFor({ lang: 'ru', fleet: { cur: 'RUB' } });
    expect(rub.money(1467.349)).toBe('1\u00a0467,35\u00a0₽');
  });

  it('writes distances and volumes in the fleet units with Russian labels', () => {
    expect(russian.distance(1234.5)).toBe('1\u00a0235 км');
    // the web's object screens: formatNumber(km, { decimals: 0, locale }) and unitLabel(lang, 'kilometer')
    expect(russian.distance(1234.5)).toBe(
      `${formatNumber(1234.5, { decimals: 0, locale: 'ru' })} ${unitLabel('ru', 'kilometer', 2)}`,
    );
    expect(russian.distanceLabel).toBe('км');
    expect(russian.volume(40.5)).toBe('40,5 л');
    expect(russian.volumeLabel).toBe('л');
  });

  it("writes dates as the fleet's calendar days with Russian month names", () => {
    expect(russian.date(t)).toBe('05 мар. 2026');
    // Read on an unknown clock: the fleet's zone is named.
    expect(russian.dateTime(t)).toBe('05 мар. 2026 02:30 (UTC+3)');
    expect(russian.day('2026-05-04')).toBe('04 мая 2026');
    // the web's services list (formatDay): the fleet-zone day in the user's format, Russian locale
    expect(russian.date(t)).toBe(formatDate(dayjs(localDate(moscow, t)).unix(), 'DD MMM YYYY', 'ru'));
  });

  it('converts to miles and US gallons for such fleets', () => {
    const us = formatterFor({
      lang: 'en',
      dateFormat: 'MM-DD-YYYY',
      timeFormat: 'hh:mm A',
      fleet: { cur: 'USD', ms: MeasureSystem.miles, fm: FuelMeasure.gallon, tz: -300 & 0xffff },
    });
    expect(us.distance(100)).toBe('62 mi');
    expect(us.distance(100, { decimals: 3 })).toBe('62.137 mi');
    expect(us.distance(KM_PER_MILE * 1000)).toBe('1,000 mi');
    expect(us.distanceValue(100)).toBe(62.137);
    expect(us.volume(100)).toBe('26.417 gal');
    expect(us.volume(1000)).toBe('264.172 gal');
    expect(us.volumeValue(3.785411784)).toBe(1);
    expect(us.money(99.95)).toBe('$99.95');
    expect(us.money(1467.349)).toBe('$1,467.35');
    expect(us.engineHours(7.5)).toBe('8 e.h.');
    expect(us.date(t)).toBe('03-04-2026');
    expect(us.dateTime(t)).toBe('03-04-2026 06:30 PM (UTC\u22125)');
  });

  it('uses the defaults of spec §9 for a user without settings and a fleet without units', () => {
    const plain = formatterFor({});
    expect(plain.lang).toBe('en');
    expect(plain.date(t)).toBe('04.03.2026');
    expect(plain.dateTime(t)).toBe('04.03.2026 23:30 (UTC)');
    expect(plain.distance(12.5)).toBe('13 km');
    expect(plain.volume(12.5)).toBe('12.5 L');
    expect(plain.money(3)).toBe('3.00');
    expect(plain.t('common.save')).toBe(en.common!.save);
  });

  it('loads the month names of every language it is asked for', () => {
    const german = formatterFor({ lang: 'de', dateFormat: 'DD MMM YYYY', fleet: { tz: moscow } });
    expect(german.date(t)).toBe('05 März 2026');
    const ukrainian = formatterFor({ lang: 'uk', dateFormat: 'DD MMM YYYY' });
    expect(ukrainian.date(Date.UTC(2026, 4, 4) / 1000)).toBe('04 трав 2026');
  });
});
