import {
  type CaseEnv,
  FLEET_MEMBERS,
  type MatrixUser,
  type Outcome,
  outcomes,
  type RouteCase,
} from './matrix.js';

/**
 * Permission-matrix cases of the vehicle assignments (modules/assignments), spread into ROUTE_CASES of
 * routes.ts. Any fleet member reads them (`assignment.view`); writing needs manageAssignment
 * (`assignment.manage`: the manager, and the mechanic, whose manageService brought it, core
 * `withWorkshopRights`). An assignment of another fleet answers like an unknown one (404). The cases
 * work in 1970 (start 1000…6000 s), far from the demo's assignment history.
 */
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const unknown: Outcome = { status: 404, error: 5 };
const SEEDED_START = 1000;

const base = (fid: number) => `/api/fleets/${fid}/vehicle-assignments`;

/**
 * An assignment of the case's fleet unit, as the service writes one; a refused cell's seed (restore runs
 * after allowed calls only) goes first.
 */
async function seed(env: CaseEnv, other = false): Promise<number> {
  const { t, fx } = env;
  await restore(env);
  const db = t.server.ctx.db.kysely;
  const fleetId = other ? fx.otherFleetId : fx.fleetId;
  const unit = await db
    .selectFrom('units')
    .select('id')
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const member = await db
    .selectFrom('fleet_users')
    .select('user_id')
    .where('fleet_id', '=', fleetId)
    .orderBy('user_id')
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('vehicle_assignments')
    .values({
      fleet_id: fleetId,
      unit_id: unit.id,
      user_id: member.user_id,
      start_at: SEEDED_START,
      end_at: 2000,
      start_mileage: 10,
      start_engine_hours: 1,
      end_mileage: 20,
      end_engine_hours: 2,
      created_at: 1,
      created_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes what the cases made (all of it in 1970). */
async function restore({ t }: CaseEnv) {
  await t.server.ctx.db.kysely
    .deleteFrom('vehicle_assignments')
    .where('start_at', '>=', SEEDED_START)
    .where('start_at', '<=', 6000)
    .execute();
}

export const ASSIGNMENT_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/assignment-drivers',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/assignment-drivers` }),
    expect: outcomes(MANAGERS),
  },
  {
    route: 'GET /api/fleets/:fid/vehicle-assignments',
    build: ({ fx }) => ({ method: 'GET', url: `${base(fx.fleetId)}?current=1` }),
    expect: outcomes(FLEET_MEMBERS),
  },
  {
    route: 'POST /api/fleets/:fid/vehicle-assignments',
    build: ({ fx }) => ({
      method: 'POST',
      url: base(fx.fleetId),
      body: { uid: fx.unit.id, drv: fx.members[0]!.id, st: 5000, en: 6000 },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/vehicle-assignments/:id',
    build: async (env) => ({ method: 'GET', url: `${base(env.fx.fleetId)}/${await seed(env)}` }),
    expect: outcomes(FLEET_MEMBERS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/vehicle-assignments/:id',
    label: 'an assignment of another fleet',
    build: async (env) => ({ method: 'GET', url: `${base(env.fx.fleetId)}/${await seed(env, true)}` }),
    expect: { ...outcomes(FLEET_MEMBERS), ...Object.fromEntries(FLEET_MEMBERS.map((u) => [u, unknown])) },
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/vehicle-assignments/:id',
    build: async (env) => ({
      method: 'PUT',
      url: `${base(env.fx.fleetId)}/${await seed(env)}`,
      body: { en: 1900 },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/vehicle-assignments/:id',
    label: 'an assignment of another fleet',
    build: async (env) => ({
      method: 'PUT',
      url: `${base(env.fx.fleetId)}/${await seed(env, true)}`,
      body: { en: 1900 },
    }),
    expect: { ...outcomes(MANAGERS), ...Object.fromEntries(MANAGERS.map((u) => [u, unknown])) },
    restore,
  },
  {
    route: 'DELETE /api/fleets/:fid/vehicle-assignments/:id',
    build: async (env) => ({ method: 'DELETE', url: `${base(env.fx.fleetId)}/${await seed(env)}` }),
    expect: outcomes(MANAGERS),
    restore,
  },
];
