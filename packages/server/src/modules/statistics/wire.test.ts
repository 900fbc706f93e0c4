import { FuelMeasure, fromThousandths, MeasureSystem } from '@fleetkeep/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalOf } from './rules.js';
import { figuresToWire, unitRowJson } from './wire.js';

/**
 * The fleet reply's unit rows are written out by hand (wire.ts `unitRowJson`) and its decimals without
 * core's text round trip (rules.ts `decimalOf`): both must be exactly what the generic path gives.
 */
describe('statistics wire', () => {
  const thousandths = fc.integer({ min: -(2 ** 45), max: 2 ** 45 });
  const figures = fc.record({
    mileage: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e7, noNaN: true })),
    engineHours: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e5, noNaN: true })),
    servicesCost: thousandths,
    servicesCount: fc.nat(100_000),
    fuelCost: thousandths,
    fuelCount: fc.nat(100_000),
    fuelL: fc.nat(2 ** 40),
    fuelGal: fc.nat(2 ** 40),
  });
  const units = fc.record({
    fm: fc.constantFrom(FuelMeasure.liter, FuelMeasure.gallon),
    ms: fc.constantFrom(MeasureSystem.meters, MeasureSystem.miles),
  });

  it('writes a unit row as JSON.stringify writes its wire', () => {
    fc.assert(
      fc.property(fc.nat(), figures, units, (uid, f, u) => {
        expect(unitRowJson(uid, f, u)).toBe(JSON.stringify({ uid, ...figuresToWire(f, u) }));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes a row with nothing driven with null cost per km and consumption', () => {
    const row = JSON.parse(
      unitRowJson(
        7,
        {
          mileage: 0,
          engineHours: 0,
          servicesCost: 1500,
          servicesCount: 1,
          fuelCost: 0,
          fuelCount: 0,
          fuelL: 0,
          fuelGal: 0,
        },
        { fm: FuelMeasure.liter, ms: MeasureSystem.meters },
      ),
    );
    expect(row).toMatchObject({ uid: 7, services_cost: 1.5, cost_per_km: null, consumption: null });
  });

  it('reads thousandths as core fromThousandths does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 52) + 1, max: 2 ** 52 - 1 }), (t) => {
        expect(decimalOf(t)).toBe(fromThousandths(t));
      }),
      { numRuns: 20_000 },
    );
    for (const t of [0, 1, -1, 999, 1001, 123_456_789, 2 ** 52 + 1, 0.5])
      expect(decimalOf(t)).toBe(fromThousandths(t));
  });
});
