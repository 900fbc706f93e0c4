/**
 * Number display of spec §9: at most 3 decimals, optional k/M/G/T/P/E suffixes, '<1' for small positive
 * values. Without a `locale` the digits are grouped with spaces around a dot decimal (the spec's neutral
 * form); with the reader's `locale` (docs/product.md "Numbers, money and times") the grouping and the
 * decimal separator are the language's, from Intl.NumberFormat. Pure, so that every screen, mail and
 * report formats alike.
 */

const SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

export interface NumberFormat {
  /** Fraction digits kept at most (spec §9: up to 3). */
  decimals?: number;
  /** Shorten thousands with k, M, G, T, P, E. */
  suffix?: boolean;
  /** Show positive values under 1 as '<1'. */
  lessThanOne?: boolean;
  /** The reader's language (one of the 23, or any BCP 47 tag): its grouping and decimal separator. */
  locale?: string;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A cached Intl.NumberFormat of `locale` with at most `places` fraction digits (English if unknown). */
function intlNumber(locale: string, places: number): Intl.NumberFormat {
  const key = `${locale}|${places}`;
  let nf = numberFormats.get(key);
  if (!nf) {
    const options = { minimumFractionDigits: 0, maximumFractionDigits: places };
    try {
      nf = new Intl.NumberFormat(locale, options);
    } catch {
      nf = new Intl.NumberFormat('en', options);
    }
    numberFormats.set(key, nf);
  }
  return nf;
}

/** Groups the integer digits with spaces: 1234567 → '1 234 567'. */
function group(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** `value` with at most `places` fraction digits, trailing zeros dropped, no '-0'. */
function fixed(value: number, places: number): string {
  // toFixed answers in exponent notation from 1e21 (spec §9 float maximum) on; such values have no fraction.
  if (Math.abs(value) >= 1e21) return BigInt(value).toString();
  let text = value.toFixed(places);
  if (places > 0) text = text.replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}

/** Space group separator, dot decimal, at most `decimals` fraction digits without trailing zeros. */
export function formatNumber(value: number, options: NumberFormat = {}): string {
  const { decimals = 3, suffix = false, lessThanOne = false } = options;
  if (!Number.isFinite(value)) return '';
  if (lessThanOne && value > 0 && value < 1) return '<1';
  const places = Math.max(0, Math.min(3, Math.trunc(decimals)));
  let scaled = value;
  let unit = 0;
  let text = fixed(scaled, places);
  // Rounding can carry into the next thousand (999 999.9 → '1 000k'), so the check runs on the text.
  while (suffix && Math.abs(Number(text)) >= 1000 && unit < SUFFIXES.length - 1) {
    scaled /= 1000;
    unit++;
    text = fixed(scaled, places);
  }
  if (options.locale) {
    const shown = Number(text);
    return `${intlNumber(options.locale, places).format(shown === 0 ? 0 : shown)}${SUFFIXES[unit]}`;
  }
  const negative = text.startsWith('-');
  const [integer = '0', fraction] = (negative ? text.slice(1) : text).split('.');
  const body = fraction === undefined ? group(integer) : `${group(integer)}.${fraction}`;
  return `${negative ? '-' : ''}${body}${SUFFIXES[unit]}`;
}

/** Engine hours with their unit label (spec §9: 'e.h.' in English; the caller passes the translation). */
export function formatEngineHours(value: number, label: string, options: NumberFormat = {}): string {
  return `${formatNumber(value, options)} ${label}`;
}

/** A whole number (a counter, a remaining value: docs/product.md) in the reader's locale: '12,400'. */
export function formatWhole(value: number, locale: string): string {
  return formatNumber(value, { decimals: 0, locale });
}

let currencies: ReadonlySet<string> | null = null;

/**
 * The ISO 4217 code a fleet's currency text names ('EUR', ' eur '), or null for other free text
 * ('руб.', '€', 'Euro'): spec §3 fleet `cur` is free text.
 */
export function currencyCode(currency: string | null | undefined): string | null {
  const code = (currency ?? '').trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return null;
  if (currencies === null) {
    const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
    currencies = new Set(intl.supportedValuesOf?.('currency') ?? []);
  }
  if (currencies.size > 0) return currencies.has(code) ? code : null;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return code;
  } catch {
    return null;
  }
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** The minor-unit digits of a fleet's currency text: the ISO 4217 code's (EUR 2, JPY 0), else 2. */
export function currencyDigits(currency: string | null | undefined): number {
  const code = currencyCode(currency);
  if (!code) return 2;
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

/** Exact thousandths rounded half away from zero to `digits` fraction digits (on the thousandths). */
function roundMoney(value: number, digits: number): number {
  const step = 10 ** (3 - Math.min(3, digits));
  const rounded = (Math.sign(value) * Math.round(Math.round(Math.abs(value) * 1000) / step) * step) / 1000;
  return rounded === 0 ? 0 : rounded;
}

/**
 * An amount without the currency, with the currency's minor units in the reader's locale: a table cell
 * under a heading that names the currency ('1,467.35', '1.467,35', '1,468' for JPY).
 */
export function formatMoneyAmount(value: number, currency: string, locale: string): string {
  if (!Number.isFinite(value)) return '';
  const digits = currencyDigits(currency);
  const key = `${locale}|=${digits}`;
  let nf = moneyFormats.get(key);
  if (!nf) {
    const opts = { minimumFractionDigits: digits, maximumFractionDigits: digits };
    try {
      nf = new Intl.NumberFormat(locale, opts);
    } catch {
      nf = new Intl.NumberFormat('en', opts);
    }
    moneyFormats.set(key, nf);
  }
  return nf.format(roundMoney(value, digits));
}

/**
 * Money followed by the fleet's currency text (spec §3 fleet `cur`). Without a `locale`: the spec §9
 * neutral form, '1 250.5 EUR'. With the reader's `locale` (docs/product.md "Numbers, money and times"):
 * a currency text that is an ISO 4217 code is formatted by Intl.NumberFormat with that currency's minor
 * units ('€1,250.50', '1.250,50 €', '1 251 ¥'); any other text follows the amount with two fraction
 * digits in the locale's separators ('1 250,50 руб.').
 */
export function formatMoney(value: number, currency: string, options: NumberFormat = {}): string {
  const { locale } = options;
  if (locale && Number.isFinite(value)) {
    const code = currencyCode(currency);
    const key = `${locale}|${code ?? ''}`;
    let nf = moneyFormats.get(key);
    if (!nf) {
      const opts: Intl.NumberFormatOptions = code
        ? { style: 'currency', currency: code }
        : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
      try {
        nf = new Intl.NumberFormat(locale, opts);
      } catch {
        nf = new Intl.NumberFormat('en', opts);
      }
      moneyFormats.set(key, nf);
    }
    // Amounts are exact thousandths (ARCHITECTURE.md "Data rules"): rounded on the thousandths, not on
    // the binary fraction (1.005 → 1.01).
    const digits = Math.min(3, nf.resolvedOptions().maximumFractionDigits ?? 2);
    const text = nf.format(roundMoney(value, digits));
    const shown = currency.trim();
    return code || !shown ? text : `${text} ${shown}`;
  }
  const text = formatNumber(value, options);
  return currency ? `${text} ${currency}` : text;
}

const rateFormats = new Map<string, Intl.NumberFormat>();

/**
 * A unit price or a rate (a library item's cost, cost per km; docs/product.md) in the reader's locale,
 * with up to `decimals` (at most 3) fraction digits: with the currency's sign when the fleet's currency
 * text is an ISO 4217 code ('€0.566', '0,566 €'), else the text after the number ('0,566 руб.').
 */
export function formatMoneyRate(value: number, currency: string, locale: string, decimals = 3): string {
  if (!Number.isFinite(value)) return '';
  const code = currencyCode(currency);
  const places = Math.max(0, Math.min(3, Math.trunc(decimals)));
  if (!code) {
    const text = formatNumber(value, { decimals: places, locale });
    const shown = currency.trim();
    return shown ? `${text} ${shown}` : text;
  }
  const key = `${locale}|${code}|${places}`;
  let nf = rateFormats.get(key);
  if (!nf) {
    const opts: Intl.NumberFormatOptions = {
      style: 'currency',
      currency: code,
      minimumFractionDigits: Math.min(places, currencyDigits(code)),
      maximumFractionDigits: places,
    };
    try {
      nf = new Intl.NumberFormat(locale, opts);
    } catch {
      nf = new Intl.NumberFormat('en', opts);
    }
    rateFormats.set(key, nf);
  }
  const rounded = roundMoney(value, places);
  return nf.format(rounded);
}
