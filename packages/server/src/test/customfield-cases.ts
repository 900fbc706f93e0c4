import type { TestServer } from './harness.js';
import {
  FLEET_ADMINS,
  FLEET_MEMBERS,
  type MatrixFixtures,
  outcomes,
  type RouteCase,
  unknownToOutsider,
} from './matrix.js';

/**
 * Permission-matrix cases of the custom fields (spec §6, §7 "Custom fields"), spread into ROUTE_CASES.
 * Any member reads; the admin bit writes. Routes without a fleet id answer a field of a fleet the user
 * cannot see like an unknown one (404 error 5), so the outsider gets that, not 403.
 */

const PREFIX = 'matrix field';
let seq = 0;

/** A text field of the demo fleet for units, written directly. */
async function seedField(t: TestServer, fx: MatrixFixtures): Promise<number> {
  const row = await t.server.ctx.db.kysely
    .insertInto('custom_fields')
    .values({
      fleet_id: fx.fleetId,
      name: `${PREFIX} ${++seq}`,
      type: 1,
      options: '[]',
      owner_type: 'u',
      created_at: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function dropFields({ t }: { t: TestServer }) {
  await t.server.ctx.db.kysely.deleteFrom('custom_fields').where('name', 'like', `${PREFIX}%`).execute();
}

export const CUSTOM_FIELD_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/custom-fields',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/custom-fields` }),
    expect: outcomes(FLEET_MEMBERS),
  },
  {
    route: 'POST /api/fleets/:fid/custom-fields',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/fleets/${fx.fleetId}/custom-fields`,
      body: { n: `${PREFIX} ${++seq}`, tp: 2, t: 's', s: { options: ['a', 'b'] } },
    }),
    expect: outcomes(FLEET_ADMINS),
    restore: dropFields,
  },
  {
    route: 'GET /api/custom-fields/:id',
    build: async ({ t, fx }) => ({ method: 'GET', url: `/api/custom-fields/${await seedField(t, fx)}` }),
    expect: { ...outcomes(FLEET_MEMBERS), ...unknownToOutsider },
    restore: dropFields,
  },
  {
    route: 'PUT /api/custom-fields/:id',
    label: 'rename',
    build: async ({ t, fx }) => ({
      method: 'PUT',
      url: `/api/custom-fields/${await seedField(t, fx)}`,
      body: { n: `${PREFIX} renamed ${++seq}` },
    }),
    expect: { ...outcomes(FLEET_ADMINS), ...unknownToOutsider },
    restore: dropFields,
  },
  {
    route: 'DELETE /api/custom-fields/:id',
    build: async ({ t, fx }) => ({ method: 'DELETE', url: `/api/custom-fields/${await seedField(t, fx)}` }),
    expect: { ...outcomes(FLEET_ADMINS), ...unknownToOutsider },
    restore: dropFields,
  },
];
