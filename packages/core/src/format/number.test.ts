import { describe, expect, it } from 'vitest';
import { formatEngineHours, formatMoney, formatNumber } from './number.js';

describe('formatNumber (spec §9)', () => {
  it('groups with spaces and uses a dot decimal', () => {
    expect(formatNumber(1234567.891)).toBe('1 234 567.891');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1 000');
    expect(formatNumber(0)).toBe('0');
  });
  it('formats negative numbers with the sign before the groups', () => {
    expect(formatNumber(-1234.5)).toBe('-1 234.5');
    expect(formatNumber(-999)).toBe('-999');
    expect(formatNumber(-1_000_000)).toBe('-1 000 000');
    expect(formatNumber(-0.25)).toBe('-0.25');
  });
  it('keeps at most 3 decimals and drops trailing zeros', () => {
    expect(formatNumber(1.23456)).toBe('1.235');
    expect(formatNumber(2.5)).toBe('2.5');
    expect(formatNumber(2.0001)).toBe('2');
    expect(formatNumber(1.239, { decimals: 1 })).toBe('1.2');
    expect(formatNumber(1.5, { decimals: 0 })).toBe('2');
    expect(formatNumber(1.23456, { decimals: 7 })).toBe('1.235');
    expect(formatNumber(-0.0001)).toBe('0');
  });
  it('shortens with k/M/G… suffixes on request', () => {
    expect(formatNumber(1500, { suffix: true })).toBe('1.5k');
    expect(formatNumber(2_500_000, { suffix: true })).toBe('2.5M');
    expect(formatNumber(3_000_000_000, { suffix: true })).toBe('3G');
    expect(formatNumber(4e12, { suffix: true })).toBe('4T');
    expect(formatNumber(5e15, { suffix: true })).toBe('5P');
    expect(formatNumber(6e18, { suffix: true })).toBe('6E');
    expect(formatNumber(7e21, { suffix: true })).toBe('7 000E');
    expect(formatNumber(999, { suffix: true })).toBe('999');
    expect(formatNumber(-1500, { suffix: true })).toBe('-1.5k');
    expect(formatNumber(1234, { suffix: true })).toBe('1.234k');
    expect(formatNumber(1234, { suffix: true, decimals: 1 })).toBe('1.2k');
  });
  it('carries a rounding into the next suffix', () => {
    expect(formatNumber(999_999.9, { suffix: true })).toBe('1M');
    expect(formatNumber(999.9, { suffix: true, decimals: 0 })).toBe('1k');
    expect(formatNumber(-999_999.9, { suffix: true })).toBe('-1M');
  });
  it("shows positive values under 1 as '<1' on request", () => {
    expect(formatNumber(0.4, { lessThanOne: true })).toBe('<1');
    expect(formatNumber(0.999, { lessThanOne: true })).toBe('<1');
    expect(formatNumber(0, { lessThanOne: true })).toBe('0');
    expect(formatNumber(1, { lessThanOne: true })).toBe('1');
    expect(formatNumber(-0.4, { lessThanOne: true })).toBe('-0.4');
    expect(formatNumber(0.4)).toBe('0.4');
  });
  it('writes the float maximum (1e21) in digits', () => {
    expect(formatNumber(1e21)).toBe('1 000 000 000 000 000 000 000');
  });
  it('answers empty for non-finite values', () => {
    expect(formatNumber(Number.NaN)).toBe('');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('engine hours and money', () => {
  it('formats engine hours with their (translated) label', () => {
    expect(formatEngineHours(12345.6, 'e.h.')).toBe('12 345.6 e.h.');
    expect(formatEngineHours(12345.66, 'м.ч.', { decimals: 1 })).toBe('12 345.7 м.ч.');
  });
  it('writes the fleet currency text after the amount', () => {
    expect(formatMoney(1250.5, 'EUR')).toBe('1 250.5 EUR');
    expect(formatMoney(-12.345, 'руб.')).toBe('-12.345 руб.');
    expect(formatMoney(1250.555, 'USD', { decimals: 2 })).toBe('1 250.56 USD');
    expect(formatMoney(40, '')).toBe('40');
  });
});
