import { z } from 'zod';
import { id, pathId } from './common.js';

/**
 * Wire contracts of the statistics calls (spec §7 "Fleet": GET /fleets/{id}/statistics and
 * /fleets/{id}/units/{uid}/statistics; PRODUCT.md "Service objects and counters", "Dashboard"
 * "Statistics"). Distances are km and engine hours hours (the web converts for fleets in miles); money
 * is a number with at most 3 decimals in the fleet currency; fuel volumes are in the fleet's fuel unit
 * (`fm`: 1 litres, 2 US gallons), 3 decimals. Costs count closed services by their end date and fuel
 * fillings by the fleet day they were filled on.
 */

/** Longest `from`/`to` text accepted. The period itself spans at most SERVICE_ARCHIVE_RANGE_DAYS. */
export const STATISTICS_PERIOD_TEXT_MAX = 32;

/** from/to: YYYY-MM-DD or Unix seconds, whole days in the fleet zone, both included. */
export const statisticsPeriodQuery = z.object({
  from: z.string().min(1).max(STATISTICS_PERIOD_TEXT_MAX),
  to: z.string().min(1).max(STATISTICS_PERIOD_TEXT_MAX),
});

export const statisticsUnitParams = z.object({ fid: pathId, uid: pathId });

const figures = {
  mileage: z.number().describe('Distance driven in the period, km'),
  engine_hours: z.number().describe('Engine hours in the period'),
  services_cost: z.number().describe('Total cost of the services closed in the period'),
  cost_per_km: z
    .number()
    .nullable()
    .describe('(services + fuel) cost ÷ km, 3 decimals; null when nothing was driven'),
  // Added with fuel fillings; the fields above keep their meaning.
  fuel_cost: z.number().describe('Total cost of the fuel fillings of the period'),
  total_cost: z.number().describe('services_cost + fuel_cost'),
  services_count: z.number().int().describe('Services closed in the period'),
  fuel_count: z.number().int().describe('Fuel fillings in the period'),
  fuel_volume: z.number().describe("Fuel filled in the period, in the fleet's fuel unit (fm)"),
  consumption: z
    .number()
    .nullable()
    .describe(
      'fuel_volume over mileage of the period: fuel units per 100 km in a km fleet, distance per fuel unit (mpg) in a miles fleet; null without distance or fuel',
    ),
};

/** One fleet day with any closed service or fuel filling ("per day", for the charts). */
export const statisticsDay = z.object({
  day: z.string().describe('YYYY-MM-DD in the fleet zone'),
  services_cost: z.number(),
  services_count: z.number().int(),
  fuel_cost: z.number(),
  fuel_count: z.number().int(),
  fuel_volume: z.number().describe("In the fleet's fuel unit (fm)"),
});
export type StatisticsDay = z.infer<typeof statisticsDay>;

/** GET .../units/{uid}/statistics: one unit over the period. */
export const statisticsUnitReply = z.object({
  from: z.string().describe('First day, YYYY-MM-DD in the fleet zone'),
  to: z.string().describe('Last day, YYYY-MM-DD in the fleet zone'),
  fm: z.number().int().describe('Fuel unit of the volumes: 1 litres, 2 US gallons (the fleet setting)'),
  ...figures,
  days: z
    .array(statisticsDay)
    .describe('The days of the period with any closed service or fuel filling, in order'),
});
export type StatisticsUnitWire = z.infer<typeof statisticsUnitReply>;

/** One unit's row of the fleet statistics (units with nothing in the period are left out). */
export const statisticsUnitRow = z.object({ uid: id.describe('Unit id'), ...figures });
export type StatisticsUnitRow = z.infer<typeof statisticsUnitRow>;

/**
 * GET .../statistics: the fleet's totals (units, drivers and trailers alike for costs; the fleet's
 * units for distance), its days, and a row per unit of the fleet with any figure, ordered by id.
 */
export const statisticsFleetReply = statisticsUnitReply.extend({ units: z.array(statisticsUnitRow) });
export type StatisticsFleetWire = z.infer<typeof statisticsFleetReply>;
