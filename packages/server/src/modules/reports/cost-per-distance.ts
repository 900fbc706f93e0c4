import { costPerKm } from '../statistics/rules.js';
import type { Ctx, Row } from './shared.js';
import { unitFigures, unitRow } from './unit-figures.js';

/** Service and fuel costs per unit and bucket, over the distance driven. */
export async function costPerDistanceReport(c: Ctx): Promise<Row[]> {
  return (await unitFigures(c))
    .filter((f) => f.km > 0 || f.servicesCost !== 0 || f.fuelCost !== 0)
    .map((f) => {
      const total = f.servicesCost + f.fuelCost;
      return unitRow(c, f, {
        mileage: f.km,
        services_cost: f.servicesCost,
        fuel_cost: f.fuelCost,
        total_cost: total,
        cost_per_distance: costPerKm(total, f.km),
      });
    });
}
