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

// --- meter integrity (docs/product.md "Meter integrity"): void, restore, record, replaced ---

const VOID_REASON = 'matrix void';

/** An accepted reading of a unit, older than any message (voiding or restoring it moves no counter). */
async function seedAccepted({ t }: CaseEnv, fleetId: number, unit: { id: number }, voided: boolean) {
  const row = await t.server.ctx.db.kysely
    .insertInto('meter_readings')
    .values({
      fleet_id: fleetId,
      unit_id: unit.id,
      tm_ms: 1_000_000,
      received_at: 1000,
      source: 'manual',
      status: 'accepted',
      mileage: 1,
      engine_hours: null,
      reason: REASON,
      device_id: '',
      voided_at: voided ? 1000 : null,
      void_reason: voided ? VOID_REASON : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The demo unit's meter devices before a "meter replaced", put back after the case. */
let meterDevices: { meter_odo_device: string | null; meter_hours_device: string | null } | null = null;

async function restoreIntegrity({ t, fx }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  await db.deleteFrom('meter_readings').where('reason', '=', REASON).execute();
  await db
    .deleteFrom('meter_readings')
    .where('unit_id', '=', fx.unit.id)
    .where('source', '=', 'manual')
    .execute();
  if (meterDevices) await db.updateTable('units').set(meterDevices).where('id', '=', fx.unit.id).execute();
  meterDevices = null;
}

METER_CASES.push(
  {
    route: 'POST /api/fleets/:fid/units/:id/meter/:readingId/void',
    async build(env) {
      const unit = await demoUnit(env);
      const id = await seedAccepted(env, env.fx.fleetId, unit, false);
      const body = { reason: VOID_REASON };
      return { method: 'POST', url: `${meterUrl(env.fx.fleetId, unit.id)}/${id}/void`, body };
    },
    expect: outcomes(MANAGERS),
    restore: restoreIntegrity,
  },
  {
    route: 'POST /api/fleets/:fid/units/:id/meter/:readingId/void',
    label: 'a reading of another fleet’s unit',
    async build(env) {
      const unit = await foreignUnit(env);
      const id = await seedAccepted(env, env.fx.otherFleetId, unit, false);
      const body = { reason: VOID_REASON };
      return { method: 'POST', url: `${meterUrl(env.fx.fleetId, unit.id)}/${id}/void`, body };
    },
    expect: { ...outcomes(MANAGERS), ...Object.fromEntries(MANAGERS.map((u) => [u, unknown])) },
    restore: restoreIntegrity,
  },
  {
    route: 'POST /api/fleets/:fid/units/:id/meter/:readingId/restore',
    async build(env) {
      const unit = await demoUnit(env);
      const id = await seedAccepted(env, env.fx.fleetId, unit, true);
      return { method: 'POST', url: `${meterUrl(env.fx.fleetId, unit.id)}/${id}/restore`, body: {} };
    },
    expect: outcomes(MANAGERS),
    restore: restoreIntegrity,
  },
  {
    route: 'POST /api/fleets/:fid/units/:id/meter/readings',
    label: 'the current engine hours, dated long ago (moves no counter)',
    async build(env) {
      const unit = await demoUnit(env);
      const body = { tm: 1000, cneh: unit.engine_hours };
      return { method: 'POST', url: `${meterUrl(env.fx.fleetId, unit.id)}/readings`, body };
    },
    expect: outcomes(MANAGERS),
    restore: restoreIntegrity,
  },
  {
    route: 'POST /api/fleets/:fid/units/:id/meter/replaced',
    async build(env) {
      const unit = await demoUnit(env);
      meterDevices ??= await env.t.server.ctx.db.kysely
        .selectFrom('units')
        .select(['meter_odo_device', 'meter_hours_device'])
        .where('id', '=', unit.id)
        .executeTakeFirstOrThrow();
      return { method: 'POST', url: `${meterUrl(env.fx.fleetId, unit.id)}/replaced`, body: {} };
    },
    expect: outcomes(MANAGERS),
    restore: restoreIntegrity,
  },
);
