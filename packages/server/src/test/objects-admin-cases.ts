import { randomBytes } from 'node:crypto';
import { now } from '../context.js';
import { createUnit } from './harness.js';
import { ACCOUNT_ADMINS, FLEET_ADMINS, outcomes, type RouteCase, unknownToOutsider } from './matrix.js';

/**
 * Permission-matrix cases of creating fleets and creating and removing service objects (spec §6;
 * modules/fleets/admin-routes.ts), spread into ROUTE_CASES of routes.ts.
 * Fleets: super users and account admins within their subtree; objects: the fleet's admins.
 */

const FLEET_NAME = 'matrix fleet';
const UNIT_NAME = 'matrix unit';
const PERSON_NAME = 'matrix person';

/** Removes what the cases made (also what a refused call's build left behind). */
async function removeMade({ t }: { t: import('./harness.js').TestServer }) {
  const db = t.server.ctx.db.kysely;
  await db.deleteFrom('fleets').where('name', '=', FLEET_NAME).execute();
  await db.deleteFrom('units').where('name', '=', UNIT_NAME).execute();
  await db.deleteFrom('drivers').where('name', '=', PERSON_NAME).execute();
  await db.deleteFrom('trailers').where('name', '=', PERSON_NAME).execute();
}

const deviceId = () => `matrix-${randomBytes(4).toString('hex')}`;

export const OBJECTS_ADMIN_CASES: RouteCase[] = [
  {
    route: 'POST /api/fleets',
    label: "in the caller's account",
    build: () => ({
      method: 'POST',
      url: '/api/fleets',
      body: { n: FLEET_NAME, tz: 0, cur: 'EUR', ms: 0, fm: 1 },
    }),
    expect: outcomes(ACCOUNT_ADMINS),
    restore: removeMade,
  },
  {
    route: 'POST /api/fleets',
    label: "in Northwind's account",
    build: ({ fx }) => ({
      method: 'POST',
      url: '/api/fleets',
      body: { n: FLEET_NAME, aid: fx.otherAccountId },
    }),
    // Northwind is not below the demo account; only the super user may create there.
    narrower: "Northwind lies outside the demo account admin's subtree",
    expect: outcomes(['root']),
    restore: removeMade,
  },
  {
    route: 'POST /api/fleets/:id/units',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/fleets/${fx.fleetId}/units`,
      body: { nm: UNIT_NAME, uid: deviceId(), ut: null, cnm: 100 },
    }),
    expect: outcomes(FLEET_ADMINS),
    restore: removeMade,
  },
  {
    route: 'DELETE /api/fleets/:fid/units/:id',
    async build(env) {
      await removeMade(env);
      const id = await createUnit(env.t, {
        accountId: env.fx.demoAccountId,
        fleetId: env.fx.fleetId,
        name: UNIT_NAME,
      });
      return { method: 'DELETE', url: `/api/fleets/${env.fx.fleetId}/units/${id}` };
    },
    expect: outcomes(FLEET_ADMINS),
    restore: removeMade,
  },
  {
    route: 'PUT /api/fleets/:fid/units/:id/device',
    async build(env) {
      await removeMade(env);
      const id = await createUnit(env.t, {
        accountId: env.fx.demoAccountId,
        fleetId: env.fx.fleetId,
        name: UNIT_NAME,
      });
      return {
        method: 'PUT',
        url: `/api/fleets/${env.fx.fleetId}/units/${id}/device`,
        body: { uid: deviceId() },
      };
    },
    expect: outcomes(FLEET_ADMINS),
    restore: removeMade,
  },
  {
    route: 'GET /api/fleets/:id/user/units',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/user/units` }),
    expect: outcomes(FLEET_ADMINS),
  },
  ...(['drivers', 'trailers'] as const).flatMap((kind): RouteCase[] => [
    {
      route: `POST /api/fleets/:id/${kind}`,
      build: ({ fx }) => ({
        method: 'POST',
        url: `/api/fleets/${fx.fleetId}/${kind}`,
        body: { n: PERSON_NAME, c: 'M-1', ds: '' },
      }),
      expect: outcomes(FLEET_ADMINS),
      restore: removeMade,
    },
    {
      route: `DELETE /api/${kind}/:id`,
      async build(env) {
        await removeMade(env);
        const row = await env.t.server.ctx.db.kysely
          .insertInto(kind)
          .values({
            account_id: env.fx.demoAccountId,
            fleet_id: env.fx.fleetId,
            name: PERSON_NAME,
            ds: '',
            c: '',
            cf: '[]',
            ins: 0,
            created_at: now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { method: 'DELETE', url: `/api/${kind}/${row.id}` };
      },
      expect: { ...outcomes(FLEET_ADMINS), ...unknownToOutsider },
      restore: removeMade,
    },
  ]),
];
