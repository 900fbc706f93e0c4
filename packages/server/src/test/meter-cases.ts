import {
  type CaseEnv,
  FLEET_MEMBERS,
  type MatrixUser,
  type Outcome,
  outcomes,
  type RouteCase,
} from './matrix.js';

/**
 * Permission-matrix cases of a unit's meter history (modules/meter), spread into ROUTE_CASES
 * of routes.ts. Any fleet member reads it (`meter.view`); accepting a refused reading and entering a
 * correction need manageService (`meter.manage`: manager and mechanic). A unit or a reading of another
 * fleet answers like an unknown one (404); the outsider is no member of the demo fleet.
 */
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const unknown: Outcome = { status: 404, error: 5 };
const REASON = 'matrix refusal';

const meterUrl = (fid: number, unitId: number) => `/api/fleets/${fid}/units/${unitId}/meter`;

async function foreignUnit({ t, fx }: CaseEnv) {
  return t.server.ctx.db.kysely
    .selectFrom('units')
    .select(['id', 'device_id'])
    .where('fleet_id', '=', fx.otherFleetId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
}

/** A refused reading of a unit, older than any accepted one (accepting it only marks it). */
async function seedRefused({ t }: CaseEnv, fleetId: number, unit: { id: number; device_id: string }) {
  const row = await t.server.ctx.db.kysely
    .insertInto('meter_readings')
    .values({
      fleet_id: fleetId,
      unit_id: unit.id,
      tm_ms: 1_000_000,
      received_at: 1000,
      source: 'device',
      status: 'refused',
      mileage: 1,
      engine_hours: null,
      old_mileage: null,
      old_engine_hours: null,
      reason: REASON,
      payload: '{}',
      device_id: unit.device_id,
      accepted_by: null,
      accepted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function restore({ t }: CaseEnv) {
  await t.server.ctx.db.kysely.deleteFrom('meter_readings').where('reason', '=', REASON).execute();
}

async function demoUnit({ t, fx }: CaseEnv) {
  return t.server.ctx.db.kysely
    .selectFrom('units')
    .select(['id', 'device_id', 'mileage', 'engine_hours'])
    .where('id', '=', fx.unit.id)
    .executeTakeFirstOrThrow();
}

export const METER_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/units/:id/meter',
    build: ({ fx }) => ({ method: 'GET', url: `${meterUrl(fx.fleetId, fx.unit.id)}?from=0` }),
    expect: outcomes(FLEET_MEMBERS),
  },
  {
    route: 'GET /api/fleets/:fid/units/:id/meter',
    label: 'a unit of another fleet',
    async build(env) {
      return { method: 'GET', url: meterUrl(env.fx.fleetId, (await foreignUnit(env)).id) };
    },
    expect: { ...outcomes(FLEET_MEMBERS), ...Object.fromEntries(FLEET_MEMBERS.map((u) => [u, unknown])) },
  },
  {
    route: 'GET /api/fleets/:fid/units/:id/meter',
    label: "the outsider's own fleet",
    otherFleet: true,
    async build(env) {
      return { method: 'GET', url: meterUrl(env.fx.otherFleetId, (await foreignUnit(env)).id) };
    },
    // The super user holds the admin bit on every fleet: a member of Northwind too.
    expect: { ...outcomes([]), outsider: 'ok', root: 'ok' },
  },
  {
    route: 'POST /api/fleets/:fid/units/:id/meter',
    label: 'a correction to the current counters (changes nothing)',
    async build(env) {
      const unit = await demoUnit(env);
      return {
        method: 'POST',
        url: meterUrl(env.fx.fleetId, unit.id),
        body: { cnm: unit.mileage, cneh: unit.engine_hours },
      };
    },
    expect: outcomes(MANAGERS),
  },
  {
    route: 'POST /api/fleets/:fid/units/:id/meter/:readingId/accept',
    async build(env) {
      const unit = await demoUnit(env);
      const id = await seedRefused(env, env.fx.fleetId, unit);
      return { method: 'POST', url: `${meterUrl(env.fx.fleetId, unit.id)}/${id}/accept`, body: {} };
    },
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'POST /api/fleets/:fid/units/:id/meter/:readingId/accept',
    label: 'a reading of another fleet’s unit',
    async build(env) {
      const unit = await foreignUnit(env);
      const id = await seedRefused(env, env.fx.otherFleetId, unit);
      return { method: 'POST', url: `${meterUrl(env.fx.fleetId, unit.id)}/${id}/accept`, body: {} };
    },
    expect: { ...outcomes(MANAGERS), ...Object.fromEntries(MANAGERS.map((u) => [u, unknown])) },
    restore,
  },
];
