import { consumptionOf, consumptionPerHour, countingBasis } from '@fleetkeep/core';
import type { Ctx, Row } from './shared.js';
import { unitFigures, unitRow } from './unit-figures.js';

/** The units of the fleet whose type counts engine hours (core format/consumption.ts `countingBasis`). */
async function hourCountingUnits(c: Ctx, ids: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await c.db
      .selectFrom('units')
      .innerJoin('unit_types', 'unit_types.id', 'units.unit_type_id')
      .select(['units.id', 'unit_types.name'])
      .where('units.fleet_id', '=', c.fleet.id)
      .where('units.id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const r of rows) if (countingBasis(r.name) === 'hours') out.add(r.id);
  }
  return out;
}

/**
 * Fuel per unit and bucket: fillings, volume, cost, distance, engine hours and the consumption they make:
 * per engine hour for units whose type counts hours, per distance for the others (docs/product.md
 * "Consumption of machines"). `basis` is not a column: the totals read it (service.ts `sumsOf`).
 */
export async function fuelReport(c: Ctx): Promise<Row[]> {
  const figures = await unitFigures(c);
  const hourly = await hourCountingUnits(c, [...new Set(figures.map((f) => f.uid))]);
  return figures
    .filter((f) => f.fuelCount !== 0 || f.km > 0 || (hourly.has(f.uid) && f.hours > 0))
    .map((f) => {
      const hours = hourly.has(f.uid);
      return unitRow(c, f, {
        fuel_count: f.fuelCount,
        fuel_volume: f.volume,
        fuel_cost: f.fuelCost,
        mileage: f.km,
        engine_hours: f.hours,
        consumption: hours ? null : consumptionOf(f.volume, f.km, c.fleet.ms),
        consumption_per_hour: hours ? consumptionPerHour(f.volume, f.hours) : null,
        basis: hours ? 'hours' : 'distance',
      });
    });
}
