import { haversineKm } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import type { Reading } from './reading.js';
import { acceptBecomesCounter, type CounterState, type Decision, decide, Reason } from './rules.js';

const T0 = 1_700_000_000;
const HOUR = 3600;
const DAY = 86_400;

/** A unit whose device already set its counters' baselines; `lastMs` follows `lastTime` unless given. */
const prev = (over: Partial<CounterState> = {}): CounterState => {
  const state = {
    lastTime: T0,
    lat: 53.9,
    lon: 27.56,
    ignition: false,
    mileage: 1000,
    engineHours: 100,
    odometerSet: true,
    hoursSet: true,
    ...over,
  };
  return {
    ...state,
    lastMs: over.lastMs !== undefined ? over.lastMs : state.lastTime === null ? null : state.lastTime * 1000,
  };
};

const reading = (over: Partial<Reading> = {}): Reading => ({
  deviceId: 'd',
  time: T0 + 60,
  lat: 53.9,
  lon: 27.56,
  speed: null,
  course: null,
  altitude: null,
  ignition: null,
  odometerKm: null,
  hours: null,
  params: {},
  ...over,
});

function accepted(d: Decision) {
  if (!d.ok) throw new Error(`expected acceptance, got ${d.reason}`);
  return d;
}
const reasonOf = (d: Decision) => (d.ok ? 'accepted' : d.reason);

describe('rejection rules (PRODUCT.md "Service objects and counters")', () => {
  it('refuses readings more than 5 minutes in the future', () => {
    const now = T0 + 100;
    expect(reasonOf(decide(prev(), reading({ time: now + 301 }), now))).toBe(Reason.future);
    expect(decide(prev(), reading({ time: now + 300 }), now).ok).toBe(true);
  });

  it('refuses readings before the last message', () => {
    expect(reasonOf(decide(prev(), reading({ time: T0 - 1 }), T0 + 10))).toBe(Reason.outOfOrder);
  });

  it('applies a reading at the time of the last message unless its counters go back', () => {
    // Trackers send several records per second (Teltonika): an equal time alone is no reason to refuse.
    const moved = accepted(decide(prev(), reading({ time: T0, lat: 53.901, odometerKm: 1000.2 }), T0 + 10));
    expect(moved.duplicate).toBe(false);
    expect(moved.next).toMatchObject({ lastMs: T0 * 1000, lat: 53.901, mileage: 1000.2 });
    expect(moved.countersChanged).toBe(true);
    // Without an odometer the distance from the last position counts, as at any other time.
    const driven = accepted(decide(prev(), reading({ time: T0, lat: 53.901 }), T0 + 10));
    expect(driven.next.mileage).toBeCloseTo(1000 + haversineKm(53.9, 27.56, 53.901, 27.56), 9);
    // Counters that go back at the same time: out of order, as before.
    expect(reasonOf(decide(prev(), reading({ time: T0, odometerKm: 999.5 }), T0 + 10))).toBe(
      Reason.outOfOrder,
    );
    expect(reasonOf(decide(prev(), reading({ time: T0, hours: 99 }), T0 + 10))).toBe(Reason.outOfOrder);
  });

  it('marks an exact repeat of the last message (same time, counters and position) as a duplicate', () => {
    for (const over of [
      {},
      { odometerKm: 1000 },
      { hours: 100 },
      { odometerKm: 1000, hours: 100, ignition: false },
    ]) {
      const d = accepted(decide(prev(), reading({ time: T0, ...over }), T0 + 10));
      expect(d.duplicate, JSON.stringify(over)).toBe(true);
      expect(d.countersChanged).toBe(false);
    }
    // The ignition switched in that second is news, and so is a later time.
    expect(accepted(decide(prev(), reading({ time: T0, ignition: true }), T0 + 10)).duplicate).toBe(false);
    expect(accepted(decide(prev(), reading({ time: T0 + 1 }), T0 + 10)).duplicate).toBe(false);
  });

  it('refuses an odometer that goes backwards, with a metre of tolerance', () => {
    expect(reasonOf(decide(prev(), reading({ odometerKm: 999.998 }), T0 + 60))).toBe(
      Reason.odometerBackwards,
    );
    const d = accepted(decide(prev(), reading({ odometerKm: 999.9995 }), T0 + 60));
    expect(d.next.mileage).toBe(1000);
    expect(d.countersChanged).toBe(false);
  });

  it('refuses engine hours that go backwards', () => {
    expect(reasonOf(decide(prev(), reading({ hours: 99.5 }), T0 + 60))).toBe(Reason.hoursBackwards);
  });

  it('refuses an odometer jump of more than 3,000 km per started day', () => {
    expect(reasonOf(decide(prev(), reading({ odometerKm: 4000.5 }), T0 + 60))).toBe(Reason.mileageJump);
    expect(accepted(decide(prev(), reading({ odometerKm: 4000 }), T0 + 60)).next.mileage).toBe(4000);
    // Two days and a bit: three started days allow 9,000 km.
    const later = T0 + 2 * DAY + 1;
    expect(decide(prev(), reading({ time: later, odometerKm: 10_000 }), later).ok).toBe(true);
    expect(reasonOf(decide(prev(), reading({ time: later, odometerKm: 10_001 }), later))).toBe(
      Reason.mileageJump,
    );
  });

  it('refuses a position jump of more than 3,000 km per day', () => {
    // Minsk to New York is about 7,300 km.
    const far = reading({ lat: 40.7, lon: -74, time: T0 + HOUR });
    expect(reasonOf(decide(prev(), far, T0 + HOUR))).toBe(Reason.mileageJump);
    const threeDays = T0 + 3 * DAY;
    expect(decide(prev(), { ...far, time: threeDays }, threeDays).ok).toBe(true);
  });

  it('refuses engine hours that grow faster than the clock allows', () => {
    expect(reasonOf(decide(prev(), reading({ hours: 125 }), T0 + 60))).toBe(Reason.hoursJump);
    // Faster than the wall time (docs/product.md "Meter integrity"), beyond one hour of rounding.
    expect(reasonOf(decide(prev(), reading({ hours: 124 }), T0 + 60))).toBe(Reason.hoursFasterThanTime);
    expect(reasonOf(decide(prev(), reading({ hours: 101.5 }), T0 + 60))).toBe(Reason.hoursFasterThanTime);
    expect(accepted(decide(prev(), reading({ hours: 101 }), T0 + 60)).next.engineHours).toBe(101);
    const later = reading({ time: T0 + 10 * HOUR, hours: 111 });
    expect(accepted(decide(prev(), later, T0 + 10 * HOUR)).next.engineHours).toBe(111);
    const faster = reading({ time: T0 + 10 * HOUR, hours: 111.5 });
    expect(reasonOf(decide(prev(), faster, T0 + 10 * HOUR))).toBe(Reason.hoursFasterThanTime);
  });

  it('applies the fleet’s daily distance limit where it is below 3,000 km', () => {
    const odo = reading({ time: T0 + HOUR, odometerKm: 1000 + 2500 });
    expect(accepted(decide(prev(), odo, T0 + HOUR, { dailyMaxKm: 4800 })).next.mileage).toBe(3500);
    expect(reasonOf(decide(prev(), odo, T0 + HOUR, { dailyMaxKm: 2000 }))).toBe(Reason.dailyDistance);
    // The product's 3,000 km stays the ceiling (PRODUCT.md), with its own reason.
    const far = reading({ time: T0 + HOUR, odometerKm: 1000 + 3500 });
    expect(reasonOf(decide(prev(), far, T0 + HOUR, { dailyMaxKm: 4800 }))).toBe(Reason.mileageJump);
    // Two days since the last message: twice the limit.
    const twoDays = reading({ time: T0 + DAY + HOUR, odometerKm: 1000 + 3900 });
    expect(accepted(decide(prev(), twoDays, T0 + DAY + HOUR, { dailyMaxKm: 2000 })).next.mileage).toBe(4900);
  });

  it('takes any first odometer and hours when there is no earlier message', () => {
    const d = accepted(
      decide(
        prev({ lastTime: null, lat: null, lon: null }),
        reading({ odometerKm: 50_000, hours: 5000 }),
        T0,
      ),
    );
    expect(d.next).toMatchObject({ mileage: 50_000, engineHours: 5000, lastTime: T0 + 60 });
    expect(d.countersChanged).toBe(true);
  });
});

describe('mileage accumulation', () => {
  it('adds the great-circle distance from the previous position when no odometer is sent', () => {
    const d = accepted(decide(prev(), reading({ lat: 54, lon: 27.7 }), T0 + 60));
    const km = haversineKm(53.9, 27.56, 54, 27.7);
    expect(km).toBeGreaterThan(10);
    expect(d.next.mileage).toBeCloseTo(1000 + km, 9);
    expect(d.next).toMatchObject({ lat: 54, lon: 27.7, lastTime: T0 + 60 });
    expect(d.countersChanged).toBe(true);
  });

  it('sums the legs of a route', () => {
    const route = [
      [53.9, 27.6],
      [53.95, 27.65],
      [54, 27.6],
    ] as const;
    let state = prev();
    let expected = state.mileage;
    let last = { lat: state.lat!, lon: state.lon! };
    route.forEach(([lat, lon], k) => {
      const d = accepted(decide(state, reading({ lat, lon, time: T0 + 60 * (k + 1) }), T0 + 600));
      expected += haversineKm(last.lat, last.lon, lat, lon);
      last = { lat, lon };
      state = d.next;
    });
    expect(state.mileage).toBeCloseTo(expected, 9);
  });

  it('does not count distance from a unit that has no position yet', () => {
    const d = accepted(decide(prev({ lat: null, lon: null }), reading({ lat: 10, lon: 10 }), T0 + 60));
    expect(d.next.mileage).toBe(1000);
    expect(d.countersChanged).toBe(false);
  });

  it('prefers the odometer over the distance', () => {
    const d = accepted(decide(prev(), reading({ lat: 54, lon: 28, odometerKm: 1001.5 }), T0 + 60));
    expect(d.next.mileage).toBe(1001.5);
  });
});

describe('engine hours accumulation', () => {
  it('counts the time when the ignition was on at the previous and the current reading', () => {
    const d = accepted(
      decide(prev({ ignition: true }), reading({ ignition: true, time: T0 + 1800 }), T0 + 1800),
    );
    expect(d.next.engineHours).toBeCloseTo(100.5, 9);
    expect(d.countersChanged).toBe(true);
  });

  it('does not count when the ignition was off at either end', () => {
    const on = accepted(
      decide(prev({ ignition: false }), reading({ ignition: true, time: T0 + 600 }), T0 + 600),
    );
    expect(on.next.engineHours).toBe(100);
    expect(on.next.ignition).toBe(true);
    const off = accepted(
      decide(prev({ ignition: true }), reading({ ignition: false, time: T0 + 600 }), T0 + 600),
    );
    expect(off.next.engineHours).toBe(100);
  });

  it('keeps the last known ignition state when a reading does not send it', () => {
    const d = accepted(decide(prev({ ignition: true }), reading({ time: T0 + 360 }), T0 + 360));
    expect(d.next.ignition).toBe(true);
    expect(d.next.engineHours).toBeCloseTo(100.1, 9);
    const unknown = accepted(decide(prev({ ignition: null }), reading({ time: T0 + 360 }), T0 + 360));
    expect(unknown.next.engineHours).toBe(100);
  });

  it('counts at most 6 hours for one long silence', () => {
    const later = T0 + 2 * DAY;
    const d = accepted(decide(prev({ ignition: true }), reading({ ignition: true, time: later }), later));
    expect(d.next.engineHours).toBeCloseTo(106, 9);
  });

  it('takes sent engine hours instead of accumulating', () => {
    const d = accepted(
      decide(prev({ ignition: true }), reading({ ignition: true, hours: 100.2, time: T0 + HOUR }), T0 + HOUR),
    );
    expect(d.next.engineHours).toBe(100.2);
  });
});

describe('baselines (the first reading of a device sets the counter)', () => {
  it("takes a device's first odometer as the counter, however far from the old one, and says by how much", () => {
    // The demo unit at 412,300 km counted from positions gets its tracker's real odometer.
    const state = prev({ mileage: 412_300, odometerSet: false });
    const d = accepted(decide(state, reading({ odometerKm: 98_765.4 }), T0 + 60));
    expect(d.next.mileage).toBe(98_765.4);
    expect(d.next.odometerSet).toBe(true);
    expect(d.baseline).toEqual({ mileage: 98_765.4 - 412_300, engineHours: 0 });
    // The same reading against a baselined device is refused, as before.
    expect(reasonOf(decide(prev({ mileage: 412_300 }), reading({ odometerKm: 98_765.4 }), T0 + 60))).toBe(
      Reason.odometerBackwards,
    );
  });

  it('applies the jump rules from the baseline on', () => {
    const first = accepted(decide(prev({ odometerSet: false }), reading({ odometerKm: 250_000 }), T0 + 60));
    const next = first.next;
    expect(reasonOf(decide(next, reading({ time: T0 + 120, odometerKm: 253_001 }), T0 + 120))).toBe(
      Reason.mileageJump,
    );
    const ok = accepted(decide(next, reading({ time: T0 + 120, odometerKm: 250_040 }), T0 + 120));
    expect(ok.next.mileage).toBe(250_040);
    expect(ok.baseline).toBeNull();
  });

  it('counts a plausible first step as driven, the rest of a step as the baseline', () => {
    // 12.5 km forward within a day: driven, as a later reading would be.
    const near = accepted(
      decide(prev({ odometerSet: false, lastTime: null }), reading({ odometerKm: 1012.5 }), T0 + 60),
    );
    expect(near.next.mileage).toBe(1012.5);
    expect(near.baseline).toEqual({ mileage: 0, engineHours: 0 });
    // 5,000 km forward after one day, or any step backwards: a baseline.
    const far = accepted(decide(prev({ odometerSet: false }), reading({ odometerKm: 6000 }), T0 + 60));
    expect(far.baseline).toEqual({ mileage: 5000, engineHours: 0 });
    const back = accepted(decide(prev({ hoursSet: false }), reading({ hours: 90 }), T0 + 60));
    expect(back.baseline).toEqual({ mileage: 0, engineHours: -10 });
  });

  it('sets engine hours and odometer baselines independently', () => {
    const d = accepted(
      decide(prev({ hoursSet: false }), reading({ hours: 12_000, odometerKm: 1001 }), T0 + 60),
    );
    expect(d.baseline).toEqual({ mileage: 0, engineHours: 11_900 });
    expect(d.next).toMatchObject({ mileage: 1001, engineHours: 12_000, hoursSet: true, odometerSet: true });
    // A reading without the counter sets no baseline.
    const none = accepted(decide(prev({ odometerSet: false, hoursSet: false }), reading(), T0 + 60));
    expect(none.baseline).toBeNull();
    expect(none.next).toMatchObject({ odometerSet: false, hoursSet: false });
  });

  it('still refuses a first reading in the future or out of order', () => {
    expect(reasonOf(decide(prev({ odometerSet: false }), reading({ time: T0 - 5, odometerKm: 5 }), T0))).toBe(
      Reason.outOfOrder,
    );
    expect(
      reasonOf(decide(prev({ odometerSet: false }), reading({ time: T0 + DAY, odometerKm: 5 }), T0)),
    ).toBe(Reason.future);
  });

  it('keeps what a refused reading would have set, for a manager to accept', () => {
    const d = decide(prev(), reading({ odometerKm: 9000, hours: 101 }), T0 + 60);
    expect(d).toEqual({ ok: false, reason: Reason.mileageJump, mileage: 9000, engineHours: 101 });
  });
});

describe('millisecond order', () => {
  it('accepts a second reading within the same second when it is later', () => {
    const state = prev({ lastMs: T0 * 1000 + 200 });
    const later = accepted(decide(state, reading({ time: T0, timeMs: T0 * 1000 + 700 }), T0 + 1));
    expect(later.next).toMatchObject({ lastTime: T0, lastMs: T0 * 1000 + 700 });
    // The same millisecond with the same position and counters is the same record again.
    expect(accepted(decide(state, reading({ time: T0, timeMs: T0 * 1000 + 200 }), T0 + 1)).duplicate).toBe(
      true,
    );
    expect(reasonOf(decide(state, reading({ time: T0, timeMs: T0 * 1000 + 100 }), T0 + 1))).toBe(
      Reason.outOfOrder,
    );
  });
});

describe('accepting a refused reading', () => {
  it('makes it the counter only when it is the newest', () => {
    expect(acceptBecomesCounter(null, 5)).toBe(true);
    expect(acceptBecomesCounter(T0 * 1000, T0 * 1000 + 1)).toBe(true);
    expect(acceptBecomesCounter(T0 * 1000, T0 * 1000)).toBe(true);
    expect(acceptBecomesCounter(T0 * 1000, T0 * 1000 - 1)).toBe(false);
  });
});
