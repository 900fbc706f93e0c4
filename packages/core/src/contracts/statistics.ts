import { z } from 'zod';
import { id, pathId } from './common.js';

/**
 * Wire contracts of the statistics calls (spec §7 "Fleet": GET /fleets/{id}/statistics and
 * /fleets/{id}/units/{uid}/statistics; PRODUCT.md "Service objects and counters", "Dashboard").
 * Distances are km, engine hours hours, costs numbers with at most 3 decimals.
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
};

/** GET .../units/{uid}/statistics: one unit over the period. */
export const statisticsUnitReply = z.object({
  from: z.string().describe('First day, YYYY-MM-DD in the fleet zone'),
  to: z.string().describe('Last day, YYYY-MM-DD in the fleet zone'),
  ...figures,
  fuel_cost: z.number().describe('Fuel cost of the period'),
});
export type StatisticsUnitWire = z.infer<typeof statisticsUnitReply>;

/** One unit's row of the fleet statistics (units with nothing in the period are left out). */
export const statisticsUnitRow = z.object({ uid: id.describe('Unit id'), ...figures });
export type StatisticsUnitRow = z.infer<typeof statisticsUnitRow>;

/** GET .../statistics: the fleet's totals and a row per unit with any figure, ordered by id. */
export const statisticsFleetReply = statisticsUnitReply.extend({ units: z.array(statisticsUnitRow) });
export type StatisticsFleetWire = z.infer<typeof statisticsFleetReply>;
