import { COUNTER_MAX, INTERVAL_TIME_FREQUENCY_MAX, SERVICE_NOTIFY_DAYS_MAX } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { integerDigits, numericValue, sanitizeNumeric } from './numeric.ts';

describe('sanitizeNumeric (spec §5 numeric input)', () => {
  it('keeps only the numeric part of pasted text', () => {
    expect(sanitizeNumeric('12 345,6 km')).toBe('12345.6');
    expect(sanitizeNumeric('12 345,6 km', { integerOnly: true })).toBe('12345');
    expect(sanitizeNumeric('abc')).toBe('');
    expect(sanitizeNumeric('')).toBe('');
    expect(sanitizeNumeric('€ 1 000')).toBe('1000');
  });
  it('allows one decimal point; integer-only refuses it', () => {
    expect(sanitizeNumeric('1.2.3')).toBe('1.23');
    expect(sanitizeNumeric('1.')).toBe('1.');
    expect(sanitizeNumeric('.5')).toBe('0.5');
    expect(sanitizeNumeric('1.5', { integerOnly: true })).toBe('1');
    expect(sanitizeNumeric('15', { integerOnly: true })).toBe('15');
  });
  it('reads the last separator kind as the decimal point when both appear', () => {
    expect(sanitizeNumeric('1,234.5')).toBe('1234.5');
    expect(sanitizeNumeric('1.234,5')).toBe('1234.5');
    expect(sanitizeNumeric('1,234,567.891')).toBe('1234567.891');
  });
  it('drops signs and other characters', () => {
    expect(sanitizeNumeric('-12')).toBe('12');
    expect(sanitizeNumeric('+1e5')).toBe('15');
  });
  it('caps the integer part length', () => {
    expect(sanitizeNumeric('123456', { maxIntegerLength: 4 })).toBe('1234');
    expect(sanitizeNumeric('123456.78', { maxIntegerLength: 3 })).toBe('123.78');
    expect(sanitizeNumeric('12', { maxIntegerLength: 0 })).toBe('');
  });
  it('keeps at most 3 fraction digits, fewer when the precision says so', () => {
    expect(sanitizeNumeric('1.23456')).toBe('1.234');
    expect(sanitizeNumeric('1.23456', { precision: 5 })).toBe('1.234');
    expect(sanitizeNumeric('1.23456', { precision: 1 })).toBe('1.2');
    expect(sanitizeNumeric('1.5', { precision: 0 })).toBe('1');
  });
  it('is idempotent', () => {
    for (const s of ['12 345,6 km', '1.2.3', '1,234.5', '.5', '999999.9999'])
      expect(sanitizeNumeric(sanitizeNumeric(s))).toBe(sanitizeNumeric(s));
  });
});

describe('numericValue', () => {
  it('reads sanitized text', () => {
    expect(numericValue('12345.6')).toBe(12345.6);
    expect(numericValue('1.')).toBe(1);
    expect(numericValue('')).toBeNull();
    expect(numericValue('.')).toBeNull();
  });
});

describe('integerDigits', () => {
  it('gives the integer digits of a contract maximum, so that the maximum itself can be typed', () => {
    expect(integerDigits(COUNTER_MAX)).toBe(10);
    expect(integerDigits(SERVICE_NOTIFY_DAYS_MAX)).toBe(3);
    expect(integerDigits(INTERVAL_TIME_FREQUENCY_MAX)).toBe(3);
    expect(integerDigits(12.9)).toBe(2);
    expect(sanitizeNumeric(String(COUNTER_MAX), { maxIntegerLength: integerDigits(COUNTER_MAX) })).toBe(
      '1000000000',
    );
  });
});
