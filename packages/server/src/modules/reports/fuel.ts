import { consumptionOf } from '@fleetkeep/core';
import type { Ctx, Row } from './shared.js';
import { unitFigures, unitRow } from './unit-figures.js';

/** Fuel per unit and bucket: fillings, volume, cost, distance and the consumption they make. */
export async function fuelReport(c: Ctx): Promise<Row[]> {
  return (await unitFigures(c))
    .filter((f) => f.fuelCount !== 0 || f.km > 0)
    .map((f) =>
      unitRow(c, f, {
        fuel_count: f.fuelCount,
        fuel_volume: f.volume,
        fuel_cost: f.fuelCost,
        mileage: f.km,
        consumption: consumptionOf(f.volume, f.km, c.fleet.ms),
      }),
    );
}
