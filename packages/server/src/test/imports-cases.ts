import { FLEET_ADMINS, outcomes } from './matrix.js';
import type { CaseEnv, MatrixUser, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the import flow (spec §2: manageInterval, manageService,
 * manageFuelFilling; the library import: manageService or manageInterval; units: the fleet admin, as
 * creating a unit), spread into ROUTE_CASES of
 * routes.ts. The mechanic manages services and fillings but not intervals; the viewer manages nothing.
 */

const INTERVAL_MANAGERS: MatrixUser[] = ['manager'];
const SERVICE_MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const NAME = 'matrix import';
const STATION = 'matrix import station';

const base = (env: CaseEnv) => `/api/fleets/${env.fx.fleetId}/import`;
/** The harness sends a string body as it is, as JSON: a JSON string is taken as the file's text. */
const file = (text: string) => JSON.stringify(text);

async function restore({ t, fx }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  await db.deleteFrom('intervals').where('fleet_id', '=', fx.fleetId).where('name', '=', NAME).execute();
  await db.deleteFrom('services').where('fleet_id', '=', fx.fleetId).where('name', '=', NAME).execute();
  await db
    .deleteFrom('fuel_fillings')
    .where('fleet_id', '=', fx.fleetId)
    .where('station', '=', STATION)
    .execute();
  await db.deleteFrom('line_items').where('fleet_id', '=', fx.fleetId).where('name', '=', NAME).execute();
  await db.deleteFrom('units').where('fleet_id', '=', fx.fleetId).where('name', '=', NAME).execute();
  await db.deleteFrom('issues').where('fleet_id', '=', fx.fleetId).where('title', '=', NAME).execute();
}

const rows = (env: CaseEnv) => ({
  intervals: [{ name: NAME, unit: env.fx.unit.name, time_frequency: '6' }],
  services: [{ name: NAME, unit: env.fx.unit.name }],
  fuelfillings: [
    { unit: env.fx.unit.name, date: '2024-01-02', volume: '10', price: '1.5', station: STATION },
  ],
  lineitems: [{ name: NAME, type: 'part', cost: '1.5' }],
  units: [{ name: NAME, plate: 'M-IMP 1', tags: 'matrix; import' }],
  issues: [{ object: env.fx.unit.name, title: NAME }],
});
const managers = {
  intervals: INTERVAL_MANAGERS,
  services: SERVICE_MANAGERS,
  fuelfillings: SERVICE_MANAGERS,
  lineitems: SERVICE_MANAGERS,
  units: FLEET_ADMINS,
  // Issue managers (issue.manage).
  issues: SERVICE_MANAGERS,
} as const;

export const IMPORT_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:id/import',
    build: (env) => ({ method: 'GET', url: base(env) }),
    expect: outcomes(INTERVAL_MANAGERS),
  },
  {
    route: 'POST /api/fleets/:id/import',
    build: (env) => ({
      method: 'POST',
      url: base(env),
      body: { intervals: [{ n: NAME, de: 1, dd: 3, du: 'm', u: [{ id: env.fx.unit.id }] }] },
    }),
    expect: outcomes(INTERVAL_MANAGERS),
    restore,
  },
  ...(['intervals', 'services', 'fuelfillings', 'lineitems', 'units', 'issues'] as const).flatMap(
    (kind): RouteCase[] => [
      {
        route: `POST /api/fleets/:fid/import/${kind}/parse`,
        build: (env) => ({
          method: 'POST',
          url: `${base(env)}/${kind}/parse`,
          body: file('name;cost\nA;1\n'),
        }),
        expect: outcomes(managers[kind]),
      },
      {
        route: `POST /api/fleets/:fid/import/${kind}`,
        build: (env) => ({
          method: 'POST',
          url: `${base(env)}/${kind}`,
          body: { date_format: 'YYYY-MM-DD', rows: rows(env)[kind] },
        }),
        expect: outcomes(managers[kind]),
        restore,
      },
    ],
  ),
];
