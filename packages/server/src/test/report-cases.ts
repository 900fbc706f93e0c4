import { type MatrixUser, outcomes, type RouteCase } from './matrix.js';

/**
 * Permission-matrix cases of the reports (PRODUCT.md "Reports"; core contracts/reports.ts), spread into
 * ROUTE_CASES of routes.ts. Need `report.view`: viewService, and an operational screen (spec §6), so
 * manager, mechanic and viewer; root and admin hold the admin bit only; the outsider is no member of
 * the demo fleet. The outsider's own fleet answers the outsider alone, and another fleet's object ids
 * in `ids` show nothing.
 */
const READERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const query = '?from=2025-01-01&to=2025-01-31&group=month';

export const REPORT_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/reports/:type',
    build: ({ fx }) => ({
      method: 'GET',
      url: `/api/fleets/${fx.fleetId}/reports/service-costs-by-object${query}`,
    }),
    expect: outcomes(READERS),
  },
  {
    route: 'GET /api/fleets/:fid/reports/:type',
    label: "the outsider's own fleet",
    otherFleet: true,
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.otherFleetId}/reports/fuel${query}` }),
    expect: { ...outcomes([]), outsider: 'ok' },
  },
  {
    route: 'GET /api/fleets/:fid/reports/:type/export',
    build: ({ fx }) => ({
      method: 'GET',
      url: `/api/fleets/${fx.fleetId}/reports/services-performed/export${query}&format=csv`,
    }),
    expect: outcomes(READERS),
  },
  {
    route: 'GET /api/fleets/:fid/reports/:type/export',
    label: "the outsider's own fleet",
    otherFleet: true,
    build: ({ fx }) => ({
      method: 'GET',
      url: `/api/fleets/${fx.otherFleetId}/reports/upcoming-overdue/export${query}&format=xlsx`,
    }),
    expect: { ...outcomes([]), outsider: 'ok' },
  },
];
