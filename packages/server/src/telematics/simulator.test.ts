import { haversineKm, type UnitTypeName } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { DEMO_CENTRE } from '../demo/data.js';
import { initialState, type SimStep, stepUnit } from '../demo/simulator.js';

/** A small seeded generator (mulberry32), so that every run drives the same routes. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Drives one unit for `steps` ticks of `dt` seconds from the centre. */
function drive(type: UnitTypeName, steps: number, dt = 60, seed = 7): SimStep[] {
  const random = seeded(seed);
  const state = initialState(type, random);
  let at = { lat: DEMO_CENTRE.lat, lon: DEMO_CENTRE.lon };
  const out: SimStep[] = [];
  for (let k = 1; k <= steps; k++) {
    const step = stepUnit(state, at, type, dt, 1_700_000_000 + k * dt, random);
    out.push(step);
    at = step;
  }
  return out;
}

describe('demo simulator (DESIGN §3)', () => {
  it('never moves a nonmoving unit, but runs its engine', () => {
    const steps = drive('nonmoving', 500);
    for (const s of steps) {
      expect(s).toMatchObject({ lat: DEMO_CENTRE.lat, lon: DEMO_CENTRE.lon, speed: 0 });
    }
    expect(steps.some((s) => s.ignition)).toBe(true);
  });

  it('drives each type at its own speed', () => {
    const moving = (type: UnitTypeName) => drive(type, 500).filter((s) => s.speed > 0);
    const range = (steps: SimStep[]) => ({
      min: Math.min(...steps.map((s) => s.speed)),
      max: Math.max(...steps.map((s) => s.speed)),
    });
    const tractor = range(moving('tractor'));
    expect(tractor.min).toBeGreaterThanOrEqual(8);
    expect(tractor.max).toBeLessThanOrEqual(25);
    const truck = range(moving('heavy_truck'));
    expect(truck.min).toBeGreaterThanOrEqual(60);
    expect(truck.max).toBeLessThanOrEqual(90);
    expect(range(moving('car')).max).toBeGreaterThan(truck.max);
  });

  it('parks now and then with the ignition off, staying in place', () => {
    const steps = drive('van', 1000);
    const parked = steps.filter((s) => !s.ignition);
    expect(parked.length).toBeGreaterThan(0);
    expect(parked.length).toBeLessThan(steps.length / 2);
    steps.forEach((s, k) => {
      if (!s.ignition) {
        expect(s.speed).toBe(0);
        if (k > 0)
          expect({ lat: s.lat, lon: s.lon }).toEqual({ lat: steps[k - 1]!.lat, lon: steps[k - 1]!.lon });
      }
    });
  });

  it('stays within about 30 km of the demo centre on a long drive', () => {
    for (const seed of [1, 2, 3]) {
      const steps = drive('car', 3000, 60, seed);
      const farthest = Math.max(
        ...steps.map((s) => haversineKm(s.lat, s.lon, DEMO_CENTRE.lat, DEMO_CENTRE.lon)),
      );
      expect(farthest).toBeLessThan(32);
      expect(farthest).toBeGreaterThan(10);
    }
  });

  it('lets the heading drift instead of driving straight lines', () => {
    const courses = new Set(drive('lorry', 50).map((s) => Math.round(s.course)));
    expect(courses.size).toBeGreaterThan(10);
  });
});
