import { describe, expect, it } from 'vitest';
import { parseRange } from '../../../../scripts/sim/devices.mjs';
import {
  advance,
  createTruck,
  DEFAULT_CENTRE,
  distanceKm,
  PARK_S,
  type Report,
  report,
  SPEED_MAX,
  seededRandom,
  TURN_BACK_KM,
} from '../../../../scripts/sim/motion.mjs';

/** The device simulator's trucks (`npm run simulate`, DESIGN §3): plausible routes, odometers, ignition. */

const T0 = Date.UTC(2025, 0, 6, 8);

/** A truck's reports every `stepS` seconds for `hours`. */
function drive(seed: number, hours: number, stepS = 5): Report[] {
  const truck = createTruck({ random: seededRandom(seed), timeMs: T0 });
  const out = [report(truck)];
  for (let k = 0; k < (hours * 3600) / stepS; k++) out.push(advance(truck, stepS * 1000));
  return out;
}

describe('simulated truck motion', () => {
  it('the same seed drives the same route; another seed another', () => {
    expect(drive(7, 1)).toEqual(drive(7, 1));
    expect(drive(8, 1).at(-1)).not.toEqual(drive(7, 1).at(-1));
  });

  it('the odometer grows by the distance between the reported positions, never back', () => {
    for (const seed of [1, 2, 3]) {
      const reports = drive(seed, 4);
      let driven = 0;
      for (let k = 1; k < reports.length; k++) {
        const [a, b] = [reports[k - 1]!, reports[k]!];
        expect(b.odometerM).toBeGreaterThanOrEqual(a.odometerM);
        expect(b.timeMs - a.timeMs).toBe(5000);
        driven += distanceKm(a, b) * 1000;
      }
      const counted = reports.at(-1)!.odometerM - reports[0]!.odometerM;
      expect(counted).toBeGreaterThan(10_000);
      // Positions are rounded to 1e-6 degrees (0.1 m): the sums agree within that noise (0.2 % + 10 m).
      expect(Math.abs(counted - driven)).toBeLessThan(0.002 * driven + 10);
    }
  });

  it('speeds stay a truck’s, and in 5 s it moves no further than its speed allows', () => {
    const reports = drive(4, 3);
    for (let k = 1; k < reports.length; k++) {
      const [a, b] = [reports[k - 1]!, reports[k]!];
      expect(b.speed).toBeGreaterThanOrEqual(0);
      expect(b.speed).toBeLessThanOrEqual(SPEED_MAX);
      expect(distanceKm(a, b)).toBeLessThanOrEqual((SPEED_MAX * 5) / 3600 + 1e-6);
    }
    expect(Math.max(...reports.map((r) => r.speed))).toBeGreaterThan(50);
  });

  it('drives and parks in ignition cycles: parked it stands still with the ignition off, hours stop', () => {
    const reports = drive(5, 8);
    let cycles = 0;
    for (let k = 1; k < reports.length; k++) {
      const [a, b] = [reports[k - 1]!, reports[k]!];
      if (a.ignition && !b.ignition) cycles++;
      if (!a.ignition && !b.ignition) {
        expect([b.lat, b.lon, b.odometerM, b.hours, b.speed]).toEqual([
          a.lat,
          a.lon,
          a.odometerM,
          a.hours,
          0,
        ]);
      }
      if (a.ignition && b.ignition) expect(b.hours).toBeGreaterThan(a.hours);
    }
    // Drives of 10–60 minutes between stops of 2–15: several cycles in 8 hours.
    expect(cycles).toBeGreaterThanOrEqual(4);
    const parkedS = reports.filter((r) => !r.ignition).length * 5;
    expect(parkedS).toBeGreaterThanOrEqual(cycles * PARK_S[0] - 5);
    // Engine hours count the time with the ignition on, and only that.
    const onS = (reports.length - 1) * 5 - parkedS;
    expect(reports.at(-1)!.hours - reports[0]!.hours).toBeCloseTo(onS / 3600, 1);
  });

  it('stays around its centre', () => {
    for (const seed of [11, 12]) {
      for (const r of drive(seed, 12, 10))
        expect(distanceKm(r, DEFAULT_CENTRE)).toBeLessThan(TURN_BACK_KM + 5);
    }
  });

  it('records per packet: a number or a range', () => {
    expect(parseRange('5')).toEqual([5, 5]);
    expect(parseRange('1..10')).toEqual([1, 10]);
    expect(parseRange('2-4')).toEqual([2, 4]);
    expect(() => parseRange('0')).toThrow();
    expect(() => parseRange('5..2')).toThrow();
    expect(() => parseRange('many')).toThrow();
  });
});
