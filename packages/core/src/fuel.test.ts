import { describe, expect, it } from 'vitest';
import { MeasureSystem } from './constants.js';
import { countingBasis } from './format/consumption.js';
import {
  averageConsumption,
  consumptionOf,
  consumptionPerHour,
  convertPrice,
  convertVolume,
  type FuelPoint,
  fillingConsumptions,
  fillingTime,
  fuelStretches,
} from './fuel.js';
import { TZ_DST_EUROPE } from './timezone.js';

const KM = 0;
const MILES = 1;
const MI = 1.609344;
const p = (id: number, time: number, mileage: number | null, volume: number, full = true): FuelPoint => ({
  id,
  time,
  mileage,
  volume: volume * 1000,
  full,
});
const asObject = (m: Map<number, number | null>) => Object.fromEntries(m);

describe('consumption between full-tank fillings (PRODUCT.md "Fuel fillings")', () => {
  // Full 40 l at 10 000 km, partial 10 l at 10 200 km, full 25 l at 10 500 km:
  // the second full tank consumed 10 + 25 = 35 l over 500 km = 7 l/100 km.
  const fills = [p(1, 100, 10_000, 40), p(2, 200, 10_200, 10, false), p(3, 300, 10_500, 25)];

  it('adds a partial filling to the next full one; the first full filling has none', () => {
    expect(asObject(fillingConsumptions(fills, KM))).toEqual({ 1: null, 2: null, 3: 7 });
  });

  it('ignores partial fillings before the first full one (the level before it is unknown)', () => {
    const withEarlyPartial = [p(9, 50, 9_900, 15, false), ...fills];
    expect(asObject(fillingConsumptions(withEarlyPartial, KM))).toEqual({ 9: null, 1: null, 2: null, 3: 7 });
  });

  it('gives miles per gallon in a miles fleet', () => {
    // 1 000 mi → 1 300 mi with 3 gal partial and 9 gal full: 300 mi / 12 gal = 25 mpg.
    const gallons = [p(1, 1, 1000 * MI, 10), p(2, 2, 1100 * MI, 3, false), p(3, 3, 1300 * MI, 9)];
    expect(asObject(fillingConsumptions(gallons, MILES))).toEqual({ 1: null, 2: null, 3: 25 });
  });

  it('gives fuel units per 100 km in a km fleet whatever the unit (5 gal over 250 km = 2 gal/100 km)', () => {
    expect(asObject(fillingConsumptions([p(1, 1, 1000, 7), p(2, 2, 1250, 5)], KM))).toEqual({
      1: null,
      2: 2,
    });
  });

  it('measures across a full filling without mileage, adding its volume', () => {
    // 20 l (no mileage) + 28 l over 600 km = 8 l/100 km.
    const gap = [p(1, 1, 10_000, 40), p(2, 2, null, 20), p(3, 3, 10_600, 28)];
    expect(asObject(fillingConsumptions(gap, KM))).toEqual({ 1: null, 2: null, 3: 8 });
  });

  it('starts afresh when the mileage does not go up', () => {
    // 9 000 km is below 10 000 km: no figure, and the next stretch counts from it (32 l / 400 km).
    const back = [p(1, 1, 10_000, 40), p(2, 2, 9_000, 30), p(3, 3, 9_400, 32)];
    expect(asObject(fillingConsumptions(back, KM))).toEqual({ 1: null, 2: null, 3: 8 });
  });

  it('orders by time, then id, whatever the input order', () => {
    const shuffled = [fills[2]!, fills[0]!, fills[1]!];
    expect(asObject(fillingConsumptions(shuffled, KM))).toEqual({ 1: null, 2: null, 3: 7 });
    // Same time: the lower id came first.
    const tie = [p(5, 10, 1_100, 11), p(4, 10, 1_000, 50)];
    expect(asObject(fillingConsumptions(tie, KM))).toEqual({ 4: null, 5: 11 });
  });

  it('lists the stretches and averages them by their totals', () => {
    const more = [...fills, p(4, 400, 11_000, 40)];
    expect(fuelStretches(more)).toEqual([
      { id: 3, volume: 35_000, km: 500 },
      { id: 4, volume: 40_000, km: 500 },
    ]);
    // (35 + 40) l over 1 000 km = 7.5 l/100 km.
    expect(averageConsumption(more, KM)).toBe(7.5);
    expect(averageConsumption([p(1, 1, 100, 40)], KM)).toBeNull();
  });

  it('rounds to 3 decimals and has no figure without distance', () => {
    expect(consumptionOf(10_000, 300, KM)).toBe(3.333);
    expect(consumptionOf(10_000, 0, KM)).toBeNull();
    expect(consumptionOf(0, 10, MILES)).toBeNull();
  });
});

describe('exact conversions between litres and US gallons', () => {
  it('converts volumes with half-up rounding to thousandths', () => {
    expect(convertVolume(10_000, 2, 1)).toBe(37_854); // 10 gal = 37.854 117 84 l
    expect(convertVolume(1_000, 1, 2)).toBe(264); // 1 l = 0.264 172 05 gal
    expect(convertVolume(12_345, 1, 1)).toBe(12_345);
    expect(convertVolume(12_345, 2, 2)).toBe(12_345);
  });

  it('gives gallons back exactly after a trip through litres', () => {
    for (let v = 1; v < 2_000_000; v += 997) expect(convertVolume(convertVolume(v, 2, 1), 1, 2)).toBe(v);
    expect(convertVolume(convertVolume(999_999_999_999, 2, 1), 1, 2)).toBe(999_999_999_999);
  });

  it('converts prices per unit the other way round', () => {
    expect(convertPrice(1_659, 1, 2)).toBe(6_280); // 1.659 per l = 6.279 998 15 per gal
    expect(convertPrice(3_499, 2, 1)).toBe(924); // 3.499 per gal = 0.924 340 per l
  });
});

describe('filling time of a request (spec §5 "YYYY-MM-DD and HH:mm:ss", fleet zone)', () => {
  const utc = (...a: [number, number, number, number?, number?, number?]) =>
    Date.UTC(a[0], a[1] - 1, a[2], a[3] ?? 0, a[4] ?? 0, a[5] ?? 0) / 1000;

  it('reads text in the fleet zone and keeps Unix seconds', () => {
    expect(fillingTime(0, '2024-03-05 07:08:09')).toBe(utc(2024, 3, 5, 7, 8, 9));
    expect(fillingTime(0, '2024-03-05T07:08')).toBe(utc(2024, 3, 5, 7, 8));
    expect(fillingTime(120, '2024-03-05 07:00')).toBe(utc(2024, 3, 5, 5));
    expect(fillingTime(-300 & 0xffff, '2024-01-01')).toBe(utc(2024, 1, 1, 5));
    expect(fillingTime(60 | TZ_DST_EUROPE, '2024-07-01 12:00')).toBe(utc(2024, 7, 1, 10));
    expect(fillingTime(60 | TZ_DST_EUROPE, '2024-01-01 12:00')).toBe(utc(2024, 1, 1, 11));
    expect(fillingTime(0, 1_700_000_000)).toBe(1_700_000_000);
  });

  it('refuses dates and times that do not exist', () => {
    for (const bad of ['2024-02-30', '2024-13-01', '2024-01-01 24:00', '2024-01-01 10:60', '1.1.2024'])
      expect(fillingTime(0, bad), bad).toBeUndefined();
  });
});

describe('consumption per engine hour (docs/product.md "Consumption of machines")', () => {
  it('is fuel units per hour, to 3 decimals', () => {
    expect(consumptionPerHour(140_000, 10)).toBe(14);
    expect(consumptionPerHour(100_000, 3)).toBe(33.333);
    expect(consumptionPerHour(1, 3)).toBe(0);
    expect(consumptionPerHour(3_500, 0.5)).toBe(7);
  });
  it('is null without hours or fuel', () => {
    expect(consumptionPerHour(100_000, 0)).toBeNull();
    expect(consumptionPerHour(0, 10)).toBeNull();
    expect(consumptionPerHour(100_000, -2)).toBeNull();
  });
  it('differs from the per-distance value of the same fuel: the value changes, not only the label', () => {
    // A forklift: 20 L over 2 engine hours and 1 km driven.
    expect(consumptionPerHour(20_000, 2)).toBe(10);
    expect(consumptionOf(20_000, 1, MeasureSystem.meters)).toBe(2000);
  });
});

describe('counting basis of unit types', () => {
  it('counts engine hours for tractors, special and stationary machines and other machines', () => {
    for (const t of ['tractor', 'specialized_vehicle', 'nonmoving', 'other'])
      expect(countingBasis(t)).toBe('hours');
    for (const t of ['car', 'heavy_truck', 'bus', 'manipulator', 'motorbike', null, undefined, 'nonsense'])
      expect(countingBasis(t)).toBe('distance');
  });
});
