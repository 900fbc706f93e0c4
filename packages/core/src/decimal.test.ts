import fc from 'fast-check';
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
  it('gives back the number the decimal text names, for any integer of thousandths', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 53 - 1), max: 2 ** 53 - 1 }), (n) => {
        const sign = n < 0 ? '-' : '';
        const abs = BigInt(Math.abs(n));
        const text = `${sign}${abs / 1000n}.${String(abs % 1000n).padStart(3, '0')}`;
        expect(fromThousandths(n)).toBe(Number(text) === 0 ? 0 : Number(text));
      }),
      { numRuns: 20_000 },
    );
    expect(fromThousandths(19990)).toBe(19.99);
    expect(fromThousandths(1)).toBe(0.001);
    expect(fromThousandths(12.5)).toBe(0.013);
  });
  it('multiplies quantity by cost and rounds to thousandths', () => {
    expect(multiplyThousandths(toThousandths('2.5')!, toThousandths('19.99')!)).toBe(49975);
    expect(multiplyThousandths(toThousandths('0.333')!, toThousandths('0.003')!)).toBe(1);
    expect(multiplyThousandths(toThousandths('-1.5')!, toThousandths('0.001')!)).toBe(-2);
  });
});
