import { describe, expect, it } from 'vitest';
import { fromThousandths, multiplyThousandths, toThousandths } from './decimal.js';

describe('exact decimals (DESIGN §2)', () => {
  it('parses text and numbers with up to 3 fraction digits', () => {
    expect(toThousandths('12.5')).toBe(12500);
    expect(toThousandths('0.001')).toBe(1);
    expect(toThousandths('-3.25')).toBe(-3250);
    expect(toThousandths(19.99)).toBe(19990);
    expect(toThousandths(0.1 + 0.2)).toBe(300);
    expect(toThousandths('7')).toBe(7000);
  });
  it('refuses more than 3 fraction digits, commas and junk', () => {
    expect(toThousandths('1.2345')).toBeUndefined();
    expect(toThousandths(1.2345)).toBeUndefined();
    expect(toThousandths('1,5')).toBeUndefined();
    expect(toThousandths('abc')).toBeUndefined();
    expect(toThousandths('')).toBeUndefined();
    expect(toThousandths(Number.NaN)).toBeUndefined();
  });
  it('sums without drift', () => {
    const parts = Array.from({ length: 1000 }, () => toThousandths('0.1')!);
    expect(fromThousandths(parts.reduce((a, b) => a + b, 0))).toBe(100);
  });
  it('multiplies quantity by cost and rounds to thousandths', () => {
    expect(multiplyThousandths(toThousandths('2.5')!, toThousandths('19.99')!)).toBe(49975);
    expect(multiplyThousandths(toThousandths('0.333')!, toThousandths('0.003')!)).toBe(1);
    expect(multiplyThousandths(toThousandths('-1.5')!, toThousandths('0.001')!)).toBe(-2);
  });
});
