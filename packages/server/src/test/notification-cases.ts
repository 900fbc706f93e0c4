import { randomUUID } from 'node:crypto';
import { FLEET_ADMINS, type MatrixUser, outcomes } from './matrix.js';
import type { CaseEnv, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the in-app notifications (decisions in core
 * contracts/notifications.ts), spread into ROUTE_CASES of routes.ts. Set-ups need admin or
 * viewNotification (`fleet.settings`: root, admin, manager); the bell needs viewService (`service.view`:
 * manager, mechanic, viewer); the outsider is no member.
 */

const BELL: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const SETUP = 'matrix set-up';

/** A set-up of the demo fleet, written directly. */
async function seedSetup({ t, fx }: CaseEnv): Promise<number> {
  const row = await t.server.ctx.db.kysely
    .insertInto('notification_setups')
    .values({
      fleet_id: fx.fleetId,
      name: SETUP,
      enabled: 1,
      kinds: 31,
      users: '[]',
      created_at: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A notification of the caller (a test one: no service), written directly; returns its event id. */
async function seedAlert({ t, fx, user }: CaseEnv): Promise<string> {
  const db = t.server.ctx.db.kysely;
  const eventId = randomUUID();
  const u = await db.selectFrom('users').select('id').where('name', '=', user).executeTakeFirstOrThrow();
  await db
    .insertInto('notifications')
    .values({
      fleet_id: fx.fleetId,
      user_id: u.id,
      event_id: eventId,
      setup_id: null,
      kind: 1,
      service_id: null,
      object_type: null,
      object_id: null,
      interval_id: null,
      data: JSON.stringify({ f: 0, n: SETUP, o: '' }),
      tm: 0,
      stm: null,
      created_at: 0,
    })
    .execute();
  return eventId;
}

/** Removes what the cases made: their set-ups and every notification naming no service. */
async function restore({ t, fx }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  await db
    .deleteFrom('notifications')
    .where('fleet_id', '=', fx.fleetId)
    .where('service_id', 'is', null)
    .execute();
  await db
    .deleteFrom('notification_setups')
    .where('fleet_id', '=', fx.fleetId)
    .where('name', '=', SETUP)
    .execute();
}

const setups = (env: CaseEnv) => `/api/fleets/${env.fx.fleetId}/notifications`;
const alerts = (env: CaseEnv) => `/api/fleets/${env.fx.fleetId}/user/alerts`;

export const NOTIFICATION_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/notifications',
    build: (env) => ({ method: 'GET', url: setups(env) }),
    expect: outcomes(FLEET_ADMINS),
  },
  {
    route: 'POST /api/fleets/:fid/notifications',
    build: (env) => ({ method: 'POST', url: setups(env), body: { n: SETUP, k: 5 } }),
    expect: outcomes(FLEET_ADMINS),
    restore,
  },
  {
    route: 'POST /api/fleets/:fid/notifications/test',
    build: (env) => ({ method: 'POST', url: `${setups(env)}/test`, body: { n: SETUP, k: 1 } }),
    expect: outcomes(FLEET_ADMINS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/notifications/:id',
    build: async (env) => ({ method: 'GET', url: `${setups(env)}/${await seedSetup(env)}` }),
    expect: outcomes(FLEET_ADMINS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/notifications/:id',
    build: async (env) => ({ method: 'PUT', url: `${setups(env)}/${await seedSetup(env)}`, body: { k: 4 } }),
    expect: outcomes(FLEET_ADMINS),
    restore,
  },
  {
    route: 'DELETE /api/fleets/:fid/notifications/:id',
    build: async (env) => ({ method: 'DELETE', url: `${setups(env)}/${await seedSetup(env)}` }),
    expect: outcomes(FLEET_ADMINS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/notifications',
    label: "the outsider's fleet",
    otherFleet: true,
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.otherFleetId}/notifications` }),
    // Northwind: root by role, its own user (every bit); the demo users are no members there.
    expect: outcomes(['root', 'outsider']),
  },
  {
    route: 'GET /api/fleets/:fid/user/alerts',
    build: (env) => ({ method: 'GET', url: alerts(env) }),
    expect: outcomes(BELL),
  },
  {
    route: 'POST /api/fleets/:fid/user/alerts',
    build: async (env) => ({ method: 'POST', url: alerts(env), body: { event_ids: [await seedAlert(env)] } }),
    expect: outcomes(BELL),
    restore,
  },
  {
    route: 'POST /api/fleets/:fid/user/alerts/delete',
    build: async (env) => ({
      method: 'POST',
      url: `${alerts(env)}/delete`,
      body: { event_ids: [await seedAlert(env)] },
    }),
    expect: outcomes(BELL),
    restore,
  },
];
