import dayjs from 'dayjs';

/** Number and date display of spec §9 and §5. Pure, so that every screen formats alike. */

const SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

export interface NumberFormat {
  /** Fraction digits kept at most (spec §9: up to 3). */
  decimals?: number;
  /** Shorten thousands with k, M, G, T, P, E. */
  suffix?: boolean;
  /** Show positive values under 1 as '<1'. */
  lessThanOne?: boolean;
}

/** Groups the integer part with spaces: 1234567 → '1 234 567'. */
function group(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** Space group separator, dot decimal, at most `decimals` fraction digits without trailing zeros. */
export function formatNumber(value: number, options: NumberFormat = {}): string {
  const { decimals = 3, suffix = false, lessThanOne = false } = options;
  if (!Number.isFinite(value)) return '';
  if (lessThanOne && value > 0 && value < 1) return '<1';
  let scaled = value;
  let unit = 0;
  if (suffix) {
    while (Math.abs(scaled) >= 1000 && unit < SUFFIXES.length - 1) {
      scaled /= 1000;
      unit++;
    }
  }
  const places = Math.max(0, Math.min(3, Math.trunc(decimals)));
  let text = scaled.toFixed(places);
  if (places > 0) text = text.replace(/\.?0+$/, '');
  if (text === '-0') text = '0';
  const negative = text.startsWith('-');
  const [integer = '0', fraction] = (negative ? text.slice(1) : text).split('.');
  const body = fraction === undefined ? group(integer) : `${group(integer)}.${fraction}`;
  return `${negative ? '-' : ''}${body}${SUFFIXES[unit]}`;
}

/** Engine hours with the unit label ('e.h.' in English, translated by the caller). */
export function formatEngineHours(value: number, label: string, options: NumberFormat = {}): string {
  return `${formatNumber(value, options)} ${label}`;
}

/** The date formats of spec §5 and the time formats of the settings screen. */
export const DATE_FORMATS = ['DD.MM.YYYY', 'DD MMM YYYY', 'YYYY-MM-DD', 'MM-DD-YYYY', 'DD-MM-YYYY'] as const;
export const TIME_FORMATS = ['HH:mm', 'hh:mm A', 'HH:mm:ss', 'hh:mm:ss A'] as const;

/** A Unix time (seconds) in the user's date format; `locale` names month names for 'MMM'. */
export function formatDate(unixSeconds: number, dateFormat: string, locale = 'en'): string {
  return dayjs.unix(unixSeconds).locale(locale).format(dateFormat);
}

export function formatDateTime(
  unixSeconds: number,
  dateFormat: string,
  timeFormat: string,
  locale = 'en',
): string {
  return dayjs.unix(unixSeconds).locale(locale).format(`${dateFormat} ${timeFormat}`);
}

/** Requests use YYYY-MM-DD and HH:mm:ss (spec §5). */
export function requestDate(unixSeconds: number): string {
  return dayjs.unix(unixSeconds).format('YYYY-MM-DD');
}

/**
 * The localised unit part of a measurement ('km', 'mi', 'км', 'd'), for a number shown with the §9
 * formatting beside it; the unit's own name when Intl does not know it.
 */
export function unitLabel(
  lang: string,
  unit: string,
  value = 2,
  unitDisplay: 'short' | 'narrow' = 'short',
): string {
  try {
    return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay })
      .formatToParts(value)
      .filter((p) => p.type === 'unit')
      .map((p) => p.value)
      .join(' ');
  } catch {
    return unit;
  }
}

/** Money with the fleet currency: '1 250.5 EUR'. */
export function formatMoney(value: number, currency: string): string {
  const text = formatNumber(value);
  return currency ? `${text} ${currency}` : text;
}
