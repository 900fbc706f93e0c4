/**
 * Exact decimals for money and volumes (DESIGN §2): values travel as numbers or text with at most
 * 3 fraction digits (spec §9 precision) and are stored as integer thousandths, so sums never drift.
 */

const DECIMAL_TEXT = /^([+-])?(\d+)(?:\.(\d{1,3}))?$/;

/** Parses a decimal with at most 3 fraction digits into integer thousandths; undefined when invalid. */
export function toThousandths(value: number | string): number | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // Numbers like 0.1 + 0.2 print with noise; three rounded digits are what the user meant.
    text = value.toFixed(3).replace(/\.?0+$/, '');
    if (Math.abs(Math.round(value * 1000) - value * 1000) > 1e-6 * Math.max(1, Math.abs(value)))
      return undefined;
  } else {
    text = value.trim();
  }
  const m = DECIMAL_TEXT.exec(text);
  if (!m) return undefined;
  const whole = Number(m[2]);
  const fraction = Number((m[3] ?? '').padEnd(3, '0'));
  const result = whole * 1000 + fraction;
  if (!Number.isSafeInteger(result)) return undefined;
  return m[1] === '-' ? -result : result;
}

/**
 * Integer thousandths back to a number for the wire (exact for every value below 2^53 / 1000). For an
 * integer the division is already the double nearest to the decimal (IEEE division rounds correctly, as
 * parsing the decimal text does), without the text round trip that cost 11 % of a list rebuild.
 */
export function fromThousandths(thousandths: number): number {
  return Number.isInteger(thousandths) ? thousandths / 1000 : Number((thousandths / 1000).toFixed(3));
}

/** quantity × unit cost, both in thousandths, rounded half away from zero to thousandths. */
export function multiplyThousandths(a: number, b: number): number {
  const product = BigInt(a) * BigInt(b);
  const sign = product < 0n ? -1n : 1n;
  const abs = product * sign;
  const rounded = (abs + 500n) / 1000n;
  return Number(rounded * sign);
}
