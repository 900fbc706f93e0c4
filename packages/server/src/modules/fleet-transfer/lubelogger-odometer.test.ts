import { MeterReason } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { decideOdometer } from './lubelogger-odometer.js';

/** The counter rules a LubeLogger odometer record meets on an existing unit (lubelogger-odometer.ts). */
describe('LubeLogger odometer rules', () => {
  const DAY_MS = 86_400_000;
  const now = 1_750_000_000;
  const nowMs = now * 1000;

  it('accepts a record newer than the newest reading and not lower than the counter', () => {
    expect(decideOdometer({ counter: 100, newestMs: nowMs - 10 * DAY_MS }, 150, nowMs - DAY_MS, now)).toEqual(
      {
        ok: true,
        state: { counter: 150, newestMs: nowMs - DAY_MS },
      },
    );
    // A unit without any reading takes the first record.
    expect(decideOdometer({ counter: 0, newestMs: null }, 90_000, nowMs - 400 * DAY_MS, now)).toMatchObject({
      ok: true,
      state: { counter: 90_000 },
    });
  });

  it('refuses a lower odometer, an older record, a jump and the future, with the reading reasons', () => {
    const state = { counter: 1000, newestMs: nowMs - 10 * DAY_MS };
    expect(decideOdometer(state, 999, nowMs - DAY_MS, now)).toEqual({
      ok: false,
      reason: MeterReason.odometerBackwards,
    });
    expect(decideOdometer(state, 2000, state.newestMs, now)).toEqual({
      ok: false,
      reason: MeterReason.outOfOrder,
    });
    // 9 days since the newest reading: at most 27,000 km.
    expect(decideOdometer(state, 1000 + 27_001, nowMs - DAY_MS, now)).toEqual({
      ok: false,
      reason: MeterReason.mileageJump,
    });
    expect(decideOdometer(state, 1000 + 27_000, nowMs - DAY_MS, now).ok).toBe(true);
    expect(decideOdometer(state, 1100, nowMs + DAY_MS, now)).toEqual({
      ok: false,
      reason: MeterReason.future,
    });
  });
});
