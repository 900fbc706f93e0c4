import {
  type CaseEnv,
  FLEET_ADMINS,
  FLEET_MEMBERS,
  type MatrixUser,
  type Outcome,
  outcomes,
  type RouteCase,
} from './matrix.js';

/**
 * Permission-matrix cases of a unit's fault codes (modules/fault-codes), spread into ROUTE_CASES of
 * routes.ts. Any fleet member reads them (`faultcode.view`); clearing one needs manageService
 * (`faultcode.manage`: manager and mechanic). A unit or a code of another fleet answers like an unknown
 * one (404).
 */
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const unknown: Outcome = { status: 404, error: 5 };
const CODE = 'P9999';

const codesUrl = (fid: number, unitId: number) => `/api/fleets/${fid}/units/${unitId}/fault-codes`;

async function foreignUnit({ t, fx }: CaseEnv) {
  return t.server.ctx.db.kysely
    .selectFrom('units')
    .select('id')
    .where('fleet_id', '=', fx.otherFleetId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
}

/** An active code of a unit, as ingestion writes it (the one of an earlier cell, active again). */
async function seedCode({ t }: CaseEnv, fleetId: number, unitId: number) {
  const db = t.server.ctx.db.kysely;
  const seeded = await db
    .updateTable('fault_codes')
    .set({ cleared_at: null, cleared_by: null })
    .where('unit_id', '=', unitId)
    .where('code', '=', CODE)
    .returning('id')
    .executeTakeFirst();
  if (seeded) return seeded.id;
  const row = await db
    .insertInto('fault_codes')
    .values({
      fleet_id: fleetId,
      unit_id: unitId,
      code: CODE,
      first_seen: 1000,
      last_seen: 2000,
      count: 2,
      cleared_at: null,
      cleared_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function restore({ t }: CaseEnv) {
  await t.server.ctx.db.kysely.deleteFrom('fault_codes').where('code', '=', CODE).execute();
}

export const FAULT_CODE_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/units/:id/fault-codes',
    build: ({ fx }) => ({ method: 'GET', url: codesUrl(fx.fleetId, fx.unit.id) }),
    expect: outcomes(FLEET_MEMBERS),
  },
  {
    route: 'GET /api/fleets/:fid/units/:id/fault-codes',
    label: 'a unit of another fleet',
    async build(env) {
      return { method: 'GET', url: codesUrl(env.fx.fleetId, (await foreignUnit(env)).id) };
    },
    expect: { ...outcomes(FLEET_MEMBERS), ...Object.fromEntries(FLEET_MEMBERS.map((u) => [u, unknown])) },
  },
  {
    route: 'POST /api/fleets/:fid/units/:id/fault-codes/:codeId/clear',
    async build(env) {
      const id = await seedCode(env, env.fx.fleetId, env.fx.unit.id);
      return { method: 'POST', url: `${codesUrl(env.fx.fleetId, env.fx.unit.id)}/${id}/clear`, body: {} };
    },
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'POST /api/fleets/:fid/units/:id/fault-codes/:codeId/clear',
    label: 'a code of another fleet’s unit',
    async build(env) {
      const unit = await foreignUnit(env);
      const id = await seedCode(env, env.fx.otherFleetId, unit.id);
      return { method: 'POST', url: `${codesUrl(env.fx.fleetId, unit.id)}/${id}/clear`, body: {} };
    },
    expect: { ...outcomes(MANAGERS), ...Object.fromEntries(MANAGERS.map((u) => [u, unknown])) },
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/critical-fault-codes',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/critical-fault-codes` }),
    expect: outcomes(FLEET_MEMBERS),
  },
  {
    route: 'PUT /api/fleets/:fid/critical-fault-codes',
    build: ({ fx }) => ({
      method: 'PUT',
      url: `/api/fleets/${fx.fleetId}/critical-fault-codes`,
      body: { codes: ['P03'] },
    }),
    expect: outcomes(FLEET_ADMINS),
    async restore({ t, fx }) {
      await t.server.ctx.db.kysely
        .updateTable('fleets')
        .set({ critical_fault_codes: '[]' })
        .where('id', '=', fx.fleetId)
        .execute();
    },
  },
];
