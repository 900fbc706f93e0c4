import { fromThousandths, type LineItemWire, multiplyThousandths, toThousandths } from '@fleetkeep/core';
import { LINE_KIND, type LineForm, numberText } from './rules.ts';

/** An interval's line items: exact totals in thousandths (core decimal.ts) and the library they draw on. */

/** quantity × cost of a line in thousandths; null while either is not a valid decimal. */
export function lineTotalThousandths(line: Pick<LineForm, 'q' | 'c'>): number | null {
  const q = toThousandths(line.q.trim() === '' ? 'x' : line.q);
  const c = toThousandths(line.c.trim() === '' ? '0' : line.c);
  if (q === undefined || c === undefined) return null;
  return multiplyThousandths(q, c);
}

/** The sum of the valid lines, as a number exact to 3 fraction digits. */
export function linesTotal(lines: readonly Pick<LineForm, 'q' | 'c'>[]): number {
  const sum = lines.reduce((s, l) => s + (lineTotalThousandths(l) ?? 0), 0);
  return fromThousandths(sum);
}

export const lineTotal = (line: Pick<LineForm, 'q' | 'c'>): number | null => {
  const t = lineTotalThousandths(line);
  return t === null ? null : fromThousandths(t);
};

/** Library items an interval line can take: parts and labour (fuel stays with fuel fillings). */
export function lineLibrary(items: readonly LineItemWire[]): LineItemWire[] {
  return items.filter((i) => i.t === LINE_KIND.part || i.t === LINE_KIND.labour);
}

/** The library item a line names (same kind, name without case), if any. */
export function libraryMatch(items: readonly LineItemWire[], line: Pick<LineForm, 'n' | 't'>) {
  const name = line.n.trim().toLowerCase();
  return items.find((i) => i.t === line.t && i.n.trim().toLowerCase() === name);
}

/** A new line from a library item: its name, kind and cost, quantity 1. */
export function lineFromLibrary(item: LineItemWire): LineForm {
  return {
    n: item.n,
    t: item.t === LINE_KIND.part ? LINE_KIND.part : LINE_KIND.labour,
    q: '1',
    c: numberText(item.c),
  };
}
