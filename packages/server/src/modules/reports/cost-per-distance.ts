import { costPerKm } from '../statistics/rules.js';
import { type Ctx, nameOf, type Row } from './shared.js';
import { unitFigures } from './unit-figures.js';

/** Service and fuel costs per unit and bucket, over the distance driven. */
export async function costPerDistanceReport(c: Ctx): Promise<Row[]> {
  return (await unitFigures(c))
    .filter((f) => f.km > 0 || f.servicesCost !== 0 || f.fuelCost !== 0)
    .map((f) => {
      const object = nameOf(c, 'u', f.uid);
      const total = f.servicesCost + f.fuelCost;
      return {
        period: f.period,
        label: object,
        sort: `${object}\u0000${f.uid}`,
        ot: 'u' as const,
        oid: f.uid,
        values: {
          object,
          mileage: f.km,
          services_cost: f.servicesCost,
          fuel_cost: f.fuelCost,
          total_cost: total,
          cost_per_distance: costPerKm(total, f.km),
        },
      };
    });
}
