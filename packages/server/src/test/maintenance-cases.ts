import type { TestServer } from './harness.js';
import {
  INTERVAL_MANAGERS,
  INTERVAL_READERS,
  LIBRARY_READERS,
  LIBRARY_WRITERS,
  type MatrixFixtures,
  outcomes,
  type RouteCase,
} from './matrix.js';

/** Permission-matrix cases of the line-items library and the intervals (spec §6, §7), spread into ROUTE_CASES. */

/** Id of a library item of the demo fleet with this name, made (part, cost 1) when missing. */
async function matrixItem(t: TestServer, fx: MatrixFixtures, name: string): Promise<number> {
  const db = t.server.ctx.db.kysely;
  const row = await db
    .selectFrom('line_items')
    .select('id')
    .where('fleet_id', '=', fx.fleetId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (row) return row.id;
  const made = await db
    .insertInto('line_items')
    .values({ fleet_id: fx.fleetId, name, kind: 2, cost: 1000, created_at: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return made.id;
}

/** Id of an interval of the demo fleet with this name (every 1000 km), made when missing. */
async function matrixInterval(t: TestServer, fx: MatrixFixtures, name: string): Promise<number> {
  const db = t.server.ctx.db.kysely;
  const row = await db
    .selectFrom('intervals')
    .select('id')
    .where('fleet_id', '=', fx.fleetId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (row) return row.id;
  const made = await db
    .insertInto('intervals')
    .values({
      fleet_id: fx.fleetId,
      name,
      description: '',
      cnme: 1,
      cnmd: 1000,
      cnmo: 0,
      cnehe: 0,
      cnehd: 0,
      cneho: 0,
      de: 0,
      dd: 0,
      du: 'd',
      do: 0,
      creator_id: null,
      created_at: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return made.id;
}

export const MAINTENANCE_CASES: RouteCase[] = [
  // --- line items (spec §7 "Line items"; read: viewService|viewInterval, write: manageService|manageInterval) ---
  ...(['', '/fuel_presets'] as const).map(
    (suffix): RouteCase => ({
      route: `GET /api/fleets/:fid/line_items${suffix}`,
      build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/line_items${suffix}` }),
      expect: outcomes(LIBRARY_READERS),
    }),
  ),
  {
    route: 'POST /api/fleets/:fid/line_items',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/fleets/${fx.fleetId}/line_items`,
      body: { n: 'matrix new item', t: 2, c: 1 },
    }),
    expect: outcomes(LIBRARY_WRITERS),
    async restore({ t }) {
      await t.server.ctx.db.kysely.deleteFrom('line_items').where('name', '=', 'matrix new item').execute();
    },
  },
  {
    route: 'PUT /api/fleets/:fid/line_items/:id',
    label: 'the same cost',
    build: async ({ t, fx }) => ({
      method: 'PUT',
      url: `/api/fleets/${fx.fleetId}/line_items/${await matrixItem(t, fx, 'matrix item')}`,
      body: { c: 1 },
    }),
    expect: outcomes(LIBRARY_WRITERS),
  },
  {
    route: 'DELETE /api/fleets/:fid/line_items/:id',
    build: async ({ t, fx }) => ({
      method: 'DELETE',
      url: `/api/fleets/${fx.fleetId}/line_items/${await matrixItem(t, fx, 'matrix item to delete')}`,
    }),
    expect: outcomes(LIBRARY_WRITERS),
  },
  {
    route: 'POST /api/line_items/batch',
    build: ({ fx }) => ({
      method: 'POST',
      url: '/api/line_items/batch',
      body: { lineitems: [{ fid: fx.fleetId, n: 'matrix batch item', t: 'part', c: '1.5' }] },
    }),
    expect: outcomes(LIBRARY_WRITERS),
    async restore({ t }) {
      await t.server.ctx.db.kysely.deleteFrom('line_items').where('name', '=', 'matrix batch item').execute();
    },
  },

  // --- intervals (spec §7 "Intervals"; read: viewInterval, write: manageInterval) ---
  {
    route: 'GET /api/fleets/:fid/intervals',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/intervals` }),
    expect: outcomes(INTERVAL_READERS),
  },
  {
    route: 'POST /api/fleets/:fid/intervals',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/fleets/${fx.fleetId}/intervals`,
      body: { n: 'matrix new interval', cnme: 1, cnmd: 1000 },
    }),
    expect: outcomes(INTERVAL_MANAGERS),
    async restore({ t }) {
      await t.server.ctx.db.kysely
        .deleteFrom('intervals')
        .where('name', '=', 'matrix new interval')
        .execute();
    },
  },
  {
    route: 'POST /api/fleets/:fid/intervals/batch',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/fleets/${fx.fleetId}/intervals/batch`,
      body: {
        intervals: [{ n: 'matrix imported interval', de: 1, dd: 6, du: 'm', u: [{ id: fx.unit.id }] }],
      },
    }),
    expect: outcomes(INTERVAL_MANAGERS),
    async restore({ t }) {
      await t.server.ctx.db.kysely
        .deleteFrom('intervals')
        .where('name', '=', 'matrix imported interval')
        .execute();
    },
  },
  {
    route: 'PUT /api/fleets/:fid/intervals/:id',
    label: 'the same frequency',
    build: async ({ t, fx }) => ({
      method: 'PUT',
      url: `/api/fleets/${fx.fleetId}/intervals/${await matrixInterval(t, fx, 'matrix interval')}`,
      body: { cnmd: 1000 },
    }),
    expect: outcomes(INTERVAL_MANAGERS),
  },
  {
    route: 'DELETE /api/fleets/:fid/intervals/:id',
    build: async ({ t, fx }) => ({
      method: 'DELETE',
      url: `/api/fleets/${fx.fleetId}/intervals/${await matrixInterval(t, fx, 'matrix interval to delete')}`,
    }),
    expect: outcomes(INTERVAL_MANAGERS),
  },
  {
    route: 'GET /api/fleets/:fid/intervals/:id/units',
    build: async ({ t, fx }) => ({
      method: 'GET',
      url: `/api/fleets/${fx.fleetId}/intervals/${await matrixInterval(t, fx, 'matrix interval')}/units`,
    }),
    expect: outcomes(INTERVAL_READERS),
  },
  {
    route: 'PUT /api/fleets/:fid/intervals/:id/units',
    label: 'the same unit',
    build: async ({ t, fx }) => ({
      method: 'PUT',
      url: `/api/fleets/${fx.fleetId}/intervals/${await matrixInterval(t, fx, 'matrix interval')}/units`,
      body: { units: [{ id: fx.unit.id, t: 'u' }] },
    }),
    expect: outcomes(INTERVAL_MANAGERS),
  },
  ...(['units', 'drivers', 'trailers'] as const).flatMap((kind): RouteCase[] => {
    const objectId = (fx: MatrixFixtures) =>
      kind === 'units' ? fx.unit.id : kind === 'drivers' ? fx.driver.id : fx.trailer.id;
    return [
      {
        route: `GET /api/fleets/:fid/${kind}/:id/bases`,
        build: ({ fx }) => ({
          method: 'GET',
          url: `/api/fleets/${fx.fleetId}/${kind}/${objectId(fx)}/bases`,
        }),
        expect: outcomes(INTERVAL_READERS),
      },
      {
        route: `PUT /api/fleets/:fid/${kind}/:id/bases`,
        label: 'no change',
        build: ({ fx }) => ({
          method: 'PUT',
          url: `/api/fleets/${fx.fleetId}/${kind}/${objectId(fx)}/bases`,
          body: { bases: [] },
        }),
        expect: outcomes(INTERVAL_MANAGERS),
      },
    ];
  }),
];
