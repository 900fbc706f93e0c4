/**
 * Number display of spec §9: space group separator, dot decimal, at most 3 decimals, optional
 * k/M/G/T/P/E suffixes, '<1' for small positive values. Pure, so that every screen, mail and report
 * formats alike.
 */

const SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

export interface NumberFormat {
  /** Fraction digits kept at most (spec §9: up to 3). */
  decimals?: number;
  /** Shorten thousands with k, M, G, T, P, E. */
  suffix?: boolean;
  /** Show positive values under 1 as '<1'. */
  lessThanOne?: boolean;
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
  const negative = text.startsWith('-');
  const [integer = '0', fraction] = (negative ? text.slice(1) : text).split('.');
  const body = fraction === undefined ? group(integer) : `${group(integer)}.${fraction}`;
  return `${negative ? '-' : ''}${body}${SUFFIXES[unit]}`;
}

/** Engine hours with their unit label (spec §9: 'e.h.' in English; the caller passes the translation). */
export function formatEngineHours(value: number, label: string, options: NumberFormat = {}): string {
  return `${formatNumber(value, options)} ${label}`;
}

/** Money followed by the fleet's currency text (spec §3 fleet `cur`): '1 250.5 EUR'. */
export function formatMoney(value: number, currency: string, options: NumberFormat = {}): string {
  const text = formatNumber(value, options);
  return currency ? `${text} ${currency}` : text;
}
