import { attachmentCases, outcomes } from './attachment-cases.js';
import type { CaseEnv, MatrixUser, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the fuel fillings API (spec §6: viewFuelFilling 64, manageFuelFilling 128,
 * deleteFuelfilling 512, each with the bits it depends on), spread into ROUTE_CASES of routes.ts. The
 * mechanic views and manages fillings; only the manager holds the delete bit; root and admin hold the
 * admin bit only; the outsider is no member. Adding one needs `fuel.add`: manageFuelFilling or the
 * driver's add-only bit (131072), which the manager and the mechanic hold (core `withWorkshopRights`);
 * the driver's own cases, limited to the assigned units, are in assignments/driver.http.test.ts.
 */

const READERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const DELETERS: MatrixUser[] = ['manager'];
const ADDERS: MatrixUser[] = ['manager', 'mechanic'];
const STATION = 'matrix station';

/** A filling of the demo fleet's first unit, written directly. */
async function seed({ t, fx }: CaseEnv): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const row = await t.server.ctx.db.kysely
    .insertInto('fuel_fillings')
    .values({
      fleet_id: fx.fleetId,
      unit_id: fx.unit.id,
      filled_at: now - 3600,
      fuel_type: '',
      volume: 40_000,
      volume_unit: 1,
      price: 1_500,
      manual_cost: null,
      total_cost: 60_000,
      mileage: 1000,
      full_tank: 1,
      station: STATION,
      description: '',
      cf: '[]',
      creator_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes the fillings the cases made and their attachments. */
async function restore({ t, fx }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  const ids = (
    await db
      .selectFrom('fuel_fillings')
      .select('id')
      .where('fleet_id', '=', fx.fleetId)
      .where('station', '=', STATION)
      .execute()
  ).map((r) => r.id);
  if (ids.length === 0) return;
  await db.deleteFrom('attachments').where('owner_type', '=', 'fuel').where('owner_id', 'in', ids).execute();
  await db.deleteFrom('fuel_fillings').where('id', 'in', ids).execute();
}

const base = (env: CaseEnv) => `/api/fleets/${env.fx.fleetId}/fuel-fillings`;
const period = 'from=2020-01-01&to=2020-12-31';
const body = (env: CaseEnv) => ({ uid: env.fx.unit.id, volume: '40.5', price: 1.499, station: STATION });

export const FUEL_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/fuel-fillings',
    build: (env) => ({ method: 'GET', url: `${base(env)}?${period}` }),
    expect: outcomes(READERS),
  },
  {
    route: 'GET /api/fleets/:fid/units/:id/fuel-fillings',
    build: (env) => ({
      method: 'GET',
      url: `/api/fleets/${env.fx.fleetId}/units/${env.fx.unit.id}/fuel-fillings?${period}`,
    }),
    expect: outcomes(READERS),
  },
  {
    route: 'POST /api/fleets/:fid/fuel-fillings',
    build: (env) => ({ method: 'POST', url: base(env), body: body(env) }),
    // fuel.add (manage or add-only): the same members as managing, for the matrix users.
    expect: outcomes(ADDERS),
    restore,
  },
  {
    route: 'POST /api/fleets/:fid/fuel-fillings/batch',
    build: (env) => ({ method: 'POST', url: `${base(env)}/batch`, body: { fuel_fillings: [body(env)] } }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/fuel-fillings/:id',
    build: async (env) => ({ method: 'GET', url: `${base(env)}/${await seed(env)}` }),
    expect: outcomes(READERS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/fuel-fillings/:id',
    build: async (env) => ({
      method: 'PUT',
      url: `${base(env)}/${await seed(env)}`,
      body: { description: 'corrected' },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'DELETE /api/fleets/:fid/fuel-fillings/:id',
    build: async (env) => ({ method: 'DELETE', url: `${base(env)}/${await seed(env)}` }),
    expect: outcomes(DELETERS),
    restore,
  },
  ...attachmentCases({
    route: '/api/fleets/:fid/fuel-fillings',
    base,
    ownerType: 'fuel',
    seed: (env) => seed(env),
    restore,
    readers: READERS,
    managers: MANAGERS,
  }),
];
