import { EVERYONE, fleetCannotBeSet, outcomes, type RouteCase, SUPER_USERS } from './matrix.js';
import { PASSWORD_CASES } from './password-cases.js';

/**
 * Permission-matrix cases of the caller's own things (settings, tokens, current fleet, password), the
 * session calls and the platform calls (spec §7 "User", DESIGN §3, §4), spread into ROUTE_CASES.
 */
export const USER_CASES: RouteCase[] = [
  ...PASSWORD_CASES,
  {
    route: 'GET /api/user/tokens',
    build: () => ({ method: 'GET', url: '/api/user/tokens' }),
    expect: outcomes(EVERYONE),
  },
  {
    route: 'POST /api/user/tokens',
    build: () => ({
      method: 'POST',
      url: '/api/user/tokens',
      body: { description: 'matrix', rights: { intervals: 'view', services: 'view', archive: 'none' } },
    }),
    expect: outcomes(EVERYONE),
  },
  {
    route: 'DELETE /api/user/tokens/:id',
    label: 'own token',
    async build({ client }) {
      const created = await client.post('/api/user/tokens', {
        description: 'to delete',
        rights: { intervals: 'none', services: 'none', archive: 'none' },
      });
      if (created.status !== 200) throw new Error(`token: ${created.status}`);
      return { method: 'DELETE', url: `/api/user/tokens/${created.body.token.id}` };
    },
    expect: outcomes(EVERYONE),
  },
  {
    route: 'PUT /api/user/fleet',
    label: 'to the demo fleet',
    build: ({ fx }) => ({ method: 'PUT', url: '/api/user/fleet', body: { fid: fx.fleetId } }),
    // Demo users are already there and the outsider cannot see it: both are error 3 (spec §8), not 403.
    // The super user has no current fleet, so the demo fleet (visible to it) becomes current.
    expect: outcomes(['root'], fleetCannotBeSet),
    async restore({ t, user }) {
      if (user !== 'root') return;
      await t.server.ctx.db.kysely
        .updateTable('users')
        .set({ fid: null })
        .where('name', '=', 'root')
        .execute();
    },
  },
  {
    route: 'PATCH /api/user/settings',
    build: () => ({ method: 'PATCH', url: '/api/user/settings', body: { layer: 'osm' } }),
    expect: outcomes(EVERYONE),
  },
  {
    route: 'GET /api/user/units',
    build: () => ({ method: 'GET', url: '/api/user/units' }),
    expect: outcomes(EVERYONE),
  },

  // session (DESIGN §4)
  {
    route: 'POST /api/remoteapi/core/set_session_property',
    build: () => ({
      method: 'POST',
      url: '/api/remoteapi/core/set_session_property',
      body: { prop_name: 'skip_nonactive_items', prop_value: 1 },
    }),
    expect: outcomes(EVERYONE),
  },
  // platform calls (DESIGN §3)
  {
    route: 'POST /api/remoteapi/user/get_keys',
    build: () => ({ method: 'POST', url: '/api/remoteapi/user/get_keys', body: {} }),
    expect: outcomes(EVERYONE),
  },
  {
    route: 'GET /api/admin/client_errors',
    build: () => ({ method: 'GET', url: '/api/admin/client_errors' }),
    expect: outcomes(SUPER_USERS),
  },
  {
    route: 'GET /api/admin/map_keys',
    build: () => ({ method: 'GET', url: '/api/admin/map_keys' }),
    expect: outcomes(SUPER_USERS),
  },
  {
    route: 'POST /api/admin/map_keys',
    build: () => ({
      method: 'POST',
      url: '/api/admin/map_keys',
      body: { provider: 'osm', key: 'k', type: 16 },
    }),
    expect: outcomes(SUPER_USERS),
    restore: async ({ t }) => {
      await t.server.ctx.db.kysely.deleteFrom('map_keys').execute();
    },
  },
  {
    route: 'DELETE /api/admin/map_keys/:id',
    build: async ({ t }) => {
      const { id } = await t.server.ctx.db.kysely
        .insertInto('map_keys')
        .values({ provider: 'google', key: 'k', type: 16, created_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { method: 'DELETE', url: `/api/admin/map_keys/${id}` };
    },
    expect: outcomes(SUPER_USERS),
    restore: async ({ t }) => {
      await t.server.ctx.db.kysely.deleteFrom('map_keys').execute();
    },
  },
  {
    route: 'GET /api/admin/unit_types',
    build: () => ({ method: 'GET', url: '/api/admin/unit_types' }),
    expect: outcomes(SUPER_USERS),
  },
  {
    route: 'PUT /api/admin/unit_types/:id/teltonika',
    build: async ({ t }) => {
      const { id } = await t.server.ctx.db.kysely
        .selectFrom('unit_types')
        .select('id')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      return {
        method: 'PUT',
        url: `/api/admin/unit_types/${id}/teltonika`,
        body: { mileage: { id: 87, unit: 'm' }, hours: null },
      };
    },
    expect: outcomes(SUPER_USERS),
    restore: async ({ t }) => {
      await t.server.ctx.db.kysely.updateTable('unit_types').set({ teltonika_io: null }).execute();
    },
  },
  {
    route: 'GET /api/logout',
    endsSession: true,
    build: () => ({ method: 'GET', url: '/api/logout' }),
    expect: outcomes(EVERYONE),
  },
];
