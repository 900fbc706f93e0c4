import { describe, expect, it } from 'vitest';
import { clashOf, isCurrentAt, spansOverlap } from './assignments.js';

describe('vehicle assignment spans', () => {
  it('overlap when they share a moment; touching ends do not', () => {
    expect(spansOverlap({ start: 100, end: 200 }, { start: 150, end: 300 })).toBe(true);
    expect(spansOverlap({ start: 100, end: 200 }, { start: 200, end: 300 })).toBe(false);
    expect(spansOverlap({ start: 200, end: 300 }, { start: 100, end: 200 })).toBe(false);
    expect(spansOverlap({ start: 100, end: 200 }, { start: 120, end: 130 })).toBe(true);
    expect(spansOverlap({ start: 100, end: 200 }, { start: 300, end: 400 })).toBe(false);
  });

  it('an open span runs on for ever', () => {
    expect(spansOverlap({ start: 100, end: null }, { start: 10_000, end: 20_000 })).toBe(true);
    expect(spansOverlap({ start: 100, end: null }, { start: 10, end: 100 })).toBe(false);
    expect(spansOverlap({ start: 100, end: null }, { start: 50, end: null })).toBe(true);
  });

  it('names the earliest clashing span and skips the span itself', () => {
    const others = [
      { id: 3, start: 500, end: null },
      { id: 1, start: 0, end: 100 },
      { id: 2, start: 100, end: 300 },
    ];
    expect(clashOf({ start: 50, end: null }, others)?.id).toBe(1);
    expect(clashOf({ start: 300, end: 500 }, others)).toBeUndefined();
    expect(clashOf({ id: 2, start: 120, end: 320 }, others)).toBeUndefined();
    expect(clashOf({ id: 2, start: 120, end: 520 }, others)?.id).toBe(3);
  });

  it('is current from its start until its end', () => {
    expect(isCurrentAt({ start: 100, end: null }, 100)).toBe(true);
    expect(isCurrentAt({ start: 100, end: null }, 99)).toBe(false);
    expect(isCurrentAt({ start: 100, end: 200 }, 199)).toBe(true);
    expect(isCurrentAt({ start: 100, end: 200 }, 200)).toBe(false);
  });
});
