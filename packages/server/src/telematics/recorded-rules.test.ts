import { describe, expect, it } from 'vitest';
import { decideRecorded, Reason } from './rules.js';

/** Readings recorded by hand and their automatic voids (docs/product.md "Meter integrity"). */
describe('decideRecorded', () => {
  const NOW = 1_800_000_000;
  const H = 3600 * 1000;
  const prev = { lastMs: (NOW - 24 * 3600) * 1000, mileage: 1000, engineHours: 100 };
  const at = (hoursAfterPrev: number, mileage: number | null, engineHours: number | null = null) => ({
    ms: prev.lastMs + hoursAfterPrev * H,
    mileage,
    engineHours,
  });

  it('accepts a reading in sequence, within the limits', () => {
    expect(decideRecorded(prev, at(24, 1500, 110), NOW, 4800)).toEqual({ ok: true, voided: null });
  });

  it('refuses a reading in the future', () => {
    expect(
      decideRecorded(prev, { ms: (NOW + 3600) * 1000, mileage: 1200, engineHours: null }, NOW, 4800),
    ).toEqual({
      ok: false,
      reason: Reason.future,
    });
  });

  it('voids a reading older than the counters, or with a counter below them', () => {
    expect(decideRecorded(prev, at(-1, 900), NOW, 4800)).toEqual({ ok: true, voided: Reason.outOfSequence });
    expect(decideRecorded(prev, at(2, 999), NOW, 4800)).toEqual({ ok: true, voided: Reason.outOfSequence });
    expect(decideRecorded(prev, at(2, null, 99), NOW, 4800)).toEqual({
      ok: true,
      voided: Reason.outOfSequence,
    });
  });

  it('voids more than the daily distance per day since the last reading, a day at least', () => {
    expect(decideRecorded(prev, at(2, 1000 + 4801), NOW, 4800)).toEqual({
      ok: true,
      voided: Reason.dailyDistance,
    });
    expect(decideRecorded(prev, at(2, 1000 + 4800), NOW, 4800)).toEqual({ ok: true, voided: null });
    // A day and a minute: two days, twice the limit.
    expect(decideRecorded(prev, at(24 + 1 / 60, 1000 + 9000), NOW, 4800)).toEqual({ ok: true, voided: null });
    // The fleet's own limit.
    expect(decideRecorded(prev, at(2, 1000 + 600), NOW, 500)).toEqual({
      ok: true,
      voided: Reason.dailyDistance,
    });
  });

  it('voids engine hours that grew faster than the wall time', () => {
    expect(decideRecorded(prev, at(5, null, 105), NOW, 4800)).toEqual({ ok: true, voided: null });
    expect(decideRecorded(prev, at(5, null, 105.5), NOW, 4800)).toEqual({
      ok: true,
      voided: Reason.hoursFasterThanTime,
    });
  });

  it('takes a unit’s first reading whatever it says', () => {
    expect(decideRecorded({ ...prev, lastMs: null }, at(0, 0, 1e6), NOW, 4800)).toEqual({
      ok: true,
      voided: null,
    });
  });
});
