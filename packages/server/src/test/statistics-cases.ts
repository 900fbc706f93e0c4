import { type MatrixUser, type Outcome, outcomes, type RouteCase } from './matrix.js';

/**
 * Permission-matrix cases of the statistics calls (spec §7 "Fleet"), spread into ROUTE_CASES of
 * routes.ts. They show service costs, so they need viewService and viewInterval (spec §6), like the
 * services archive: manager, mechanic and viewer; root and admin hold the admin bit only; the outsider
 * is no member. A unit of another fleet answers like an unknown one (404).
 */
const READERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const unknown: Outcome = { status: 404, error: 5 };
const period = '?from=2025-01-01&to=2025-01-31';

export const STATISTICS_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/statistics',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/statistics${period}` }),
    expect: outcomes(READERS),
  },
  {
    route: 'GET /api/fleets/:fid/statistics',
    label: "the outsider's own fleet",
    otherFleet: true,
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.otherFleetId}/statistics${period}` }),
    expect: { ...outcomes([]), outsider: 'ok' },
  },
  {
    route: 'GET /api/fleets/:fid/units/:uid/statistics',
    build: ({ fx }) => ({
      method: 'GET',
      url: `/api/fleets/${fx.fleetId}/units/${fx.unit.id}/statistics${period}`,
    }),
    expect: outcomes(READERS),
  },
  {
    route: 'GET /api/fleets/:fid/units/:uid/statistics',
    label: 'a unit of another fleet',
    async build({ t, fx }) {
      const foreign = await t.server.ctx.db.kysely
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', fx.otherFleetId)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      return {
        method: 'GET',
        url: `/api/fleets/${fx.fleetId}/units/${foreign.id}/statistics${period}`,
      };
    },
    expect: { ...outcomes(READERS), ...Object.fromEntries(READERS.map((u) => [u, unknown])) },
  },
];
