import { fleetParams } from '../contracts/common.js';
import {
  statisticsFleetReply,
  statisticsPeriodQuery,
  statisticsUnitParams,
  statisticsUnitReply,
} from '../contracts/statistics.js';
import { route } from './route.js';

/** The statistics calls of spec §7 "Fleet" (PRODUCT.md "Service objects and counters", "Dashboard"). */

const tags = ['statistics'];

export const statisticsRoutes = {
  fleet: route({
    method: 'GET',
    path: '/api/fleets/:fid/statistics',
    params: fleetParams,
    query: statisticsPeriodQuery,
    reply: statisticsFleetReply,
    need: 'service.view',
    summary:
      'Fleet totals of a period (km, engine hours, closed services cost, cost per km) and per-unit rows; from/to: YYYY-MM-DD or Unix seconds, fleet days, ≤ 366 days',
    tags,
  }),
  unit: route({
    method: 'GET',
    path: '/api/fleets/:fid/units/:uid/statistics',
    params: statisticsUnitParams,
    query: statisticsPeriodQuery,
    reply: statisticsUnitReply,
    need: 'service.view',
    summary:
      'One unit over a period: km driven, engine hours, closed services cost, cost per km (null when no distance)',
    tags,
  }),
};
