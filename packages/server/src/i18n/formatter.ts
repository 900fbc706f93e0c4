import { createRequire } from 'node:module';
import path from 'node:path';
import {
  DEFAULT_LANGUAGE,
  DEFAULT_SETTINGS,
  distanceUnit,
  formatCalendarDay,
  formatDistance,
  formatEngineHours,
  formatFleetDate,
  formatFleetTime,
  formatMoney,
  formatMoneyAmount,
  formatNumber,
  formatVolume,
  kmToFleetDistance,
  type Language,
  litresToFleetVolume,
  type NumberFormat,
  resolveLanguage,
  unitLabel,
  volumeUnit,
} from '@fleetkeep/core';
import { LOCALES_DIR } from './locales.js';
import { type Translate, translator } from './translator.js';

/**
 * Spec §9 display bound to one reader (numbers in the reader's locale, docs/product.md): the user's language, date and time formats, and the fleet's
 * currency text, distance unit, fuel unit and time zone. What a mail or report writer uses, so that an
 * e-mail for a Russian user reads like the Russian screen:
 *
 *   const f = formatterFor({ lang: 'ru', dateFormat: 'DD MMM YYYY', fleet });
 *   f.date(service.start_date); f.distance(unit.mileage); f.money(total); f.t('services.status');
 */

export interface FormatterReader {
  /** Settings `lang` (spec §3); English when unknown. */
  lang?: string | null;
  /** Settings `dateFormat`, default DD.MM.YYYY. */
  dateFormat?: string | null;
  /** Settings `timeFormat`, default HH:mm. */
  timeFormat?: string | null;
  /** The fleet the text is about (spec §3 fleet). */
  fleet?: {
    /** Currency text. */
    cur?: string | null;
    /** Measure system: 1 miles, otherwise km. */
    ms?: number | null;
    /** Fuel measure: 1 litres, 2 US gallons. */
    fm?: number | null;
    /** Time zone code (core timezone.ts); dates are the fleet's calendar days. UTC when absent. */
    tz?: number | null;
  };
}

export interface Formatter {
  lang: Language;
  t: Translate;
  number(value: number, options?: NumberFormat): string;
  /** A Unix time as the fleet-zone day in the user's date format. */
  date(unixSeconds: number): string;
  /** A Unix time on the fleet's clock in the user's date and time formats, the zone named: '… (UTC+3)'. */
  dateTime(unixSeconds: number): string;
  /** A calendar day given as YYYY-MM-DD in the user's date format. */
  day(text: string): string;
  /** A distance given in km, whole, in the fleet's unit and the reader's locale: '12,400 mi', '100 км'. */
  distance(km: number, options?: NumberFormat): string;
  /** A distance given in km as a number in the fleet's unit (for table cells under a unit heading). */
  distanceValue(km: number): number;
  /** The fleet's distance unit label ('km', 'mi', 'км'). */
  distanceLabel: string;
  /** A fuel volume given in litres, in the fleet's unit with its label: '26.417 gal', '40 л'. */
  volume(litres: number, options?: NumberFormat): string;
  volumeValue(litres: number): number;
  volumeLabel: string;
  /** Money in the fleet's currency with its minor units, in the reader's locale: '€1,250.50'. */
  money(value: number, options?: NumberFormat): string;
  /** Whole engine hours with the translated 'e.h.' label (spec §9), in the reader's locale. */
  engineHours(hours: number, options?: NumberFormat): string;
  /** Money without the currency, with its minor units, for cells under a heading naming it: '1,250.50'. */
  moneyAmount(value: number): string;
}

// dayjs is core's dependency: its locales register on the very dayjs instance core formats with.
const requireFromCore = createRequire(path.join(LOCALES_DIR, 'en.json'));
const dayjsLocales = new Set<Language>([DEFAULT_LANGUAGE]);

/** Registers the language's dayjs locale (month names of 'DD MMM YYYY'), once; English if it fails. */
function loadDayjsLocale(lang: Language): string {
  if (!dayjsLocales.has(lang)) {
    try {
      requireFromCore(`dayjs/locale/${lang}.js`);
      dayjsLocales.add(lang);
    } catch {
      return DEFAULT_LANGUAGE;
    }
  }
  return lang;
}

export function formatterFor(reader: FormatterReader): Formatter {
  const lang = resolveLanguage(reader.lang);
  const locale = loadDayjsLocale(lang);
  const t = translator(lang);
  const dateFormat = reader.dateFormat || DEFAULT_SETTINGS.dateFormat;
  const timeFormat = reader.timeFormat || DEFAULT_SETTINGS.timeFormat;
  const { cur = '', ms, fm, tz } = reader.fleet ?? {};
  const zone = tz ?? 0;
  const engineHoursLabel = t('objects.engineHoursUnit');
  return {
    lang,
    t,
    number: (value, options) => formatNumber(value, { locale: lang, ...options }),
    date: (unix) => formatFleetDate(unix, zone, dateFormat, locale),
    // Mails and messages are read on an unknown clock: the zone is always named (docs/product.md).
    dateTime: (unix) => formatFleetTime(unix, zone, dateFormat, timeFormat, locale, null),
    day: (text) => formatCalendarDay(text, dateFormat, locale),
    distance: (km, options) => formatDistance(km, ms, lang, { decimals: 0, locale: lang, ...options }),
    distanceValue: (km) => kmToFleetDistance(km, ms),
    distanceLabel: unitLabel(lang, distanceUnit(ms)),
    volume: (litres, options) => formatVolume(litres, fm, lang, { locale: lang, ...options }),
    volumeValue: (litres) => litresToFleetVolume(litres, fm),
    volumeLabel: unitLabel(lang, volumeUnit(fm)),
    moneyAmount: (value) => formatMoneyAmount(value, cur ?? '', lang),
    money: (value, options) => formatMoney(value, cur ?? '', { locale: lang, ...options }),
    engineHours: (hours, options) =>
      formatEngineHours(hours, engineHoursLabel, { decimals: 0, locale: lang, ...options }),
  };
}
