import { consumptionOf } from '@fleetkeep/core';
import { type Ctx, nameOf, type Row } from './shared.js';
import { unitFigures } from './unit-figures.js';

/** Fuel per unit and bucket: fillings, volume, cost, distance and the consumption they make. */
export async function fuelReport(c: Ctx): Promise<Row[]> {
  return (await unitFigures(c))
    .filter((f) => f.fuelCount !== 0 || f.km > 0)
    .map((f) => {
      const object = nameOf(c, 'u', f.uid);
      return {
        period: f.period,
        label: object,
        sort: `${object}\u0000${f.uid}`,
        ot: 'u' as const,
        oid: f.uid,
        values: {
          object,
          fuel_count: f.fuelCount,
          fuel_volume: f.volume,
          fuel_cost: f.fuelCost,
          mileage: f.km,
          consumption: consumptionOf(f.volume, f.km, c.fleet.ms),
        },
      };
    });
}
