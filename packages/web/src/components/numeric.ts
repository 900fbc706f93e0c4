/** Spec §5 "Numeric input": digits and one decimal point; integer part length cap; at most 3 fraction digits. */

export interface NumericRules {
  /** Integer-only inputs refuse the decimal point (and drop whatever follows it on paste). */
  integerOnly?: boolean;
  /** Most digits the integer part may have; unlimited when absent. */
  maxIntegerLength?: number;
  /** Fraction digits allowed (capped at 3, spec §5). */
  precision?: number;
}

export const MAX_PRECISION = 3;

/**
 * Integer digits of a contract maximum, for `maxIntegerLength` (COUNTER_MAX 1e9 → 10, the notify limit
 * 365 → 3): every value up to the maximum can be typed; what lies above it is the validation's to refuse.
 */
export const integerDigits = (max: number): number => String(Math.trunc(max)).length;

/**
 * Keeps the numeric part of typed or pasted text: '12 345,6 km' → '12345.6' (decimal), '12345' (integer).
 * A comma counts as a decimal point. When both '.' and ',' appear, the kind that comes last is the decimal
 * point and the other kind is a group separator ('1,234.5' → '1234.5', '1.234,5' → '1234.5'); otherwise the
 * first separator is the decimal point and later ones are dropped ('1.2.3' → '1.23').
 */
export function sanitizeNumeric(text: string, rules: NumericRules = {}): string {
  const { integerOnly = false, maxIntegerLength, precision = MAX_PRECISION } = rules;
  const hasDot = text.includes('.');
  const hasComma = text.includes(',');
  let decimalMark: string | null = null;
  if (hasDot && hasComma) decimalMark = text.lastIndexOf('.') > text.lastIndexOf(',') ? '.' : ',';
  else if (hasDot) decimalMark = '.';
  else if (hasComma) decimalMark = ',';

  let integer = '';
  let fraction = '';
  let seenMark = false;
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') {
      if (seenMark) fraction += ch;
      else integer += ch;
    } else if (ch === decimalMark && !seenMark) {
      seenMark = true;
    }
  }
  if (maxIntegerLength !== undefined && maxIntegerLength >= 0) integer = integer.slice(0, maxIntegerLength);
  const places = Math.max(0, Math.min(MAX_PRECISION, Math.trunc(precision)));
  if (integerOnly || places === 0) return integer;
  if (!seenMark) return integer;
  return `${integer || '0'}.${fraction.slice(0, places)}`;
}

/** The number a sanitized text stands for; null when empty or only a dangling point. */
export function numericValue(text: string): number | null {
  if (text === '' || text === '.') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}
