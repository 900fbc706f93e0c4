import { outcomes } from './attachment-cases.js';
import type { CaseEnv, MatrixUser, Outcome, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the components API (docs/product.md "Components", "Store rights"), spread
 * into ROUTE_CASES of routes.ts. Reading needs viewComponent (viewer, mechanic, manager hold it through
 * their service rights); every write needs manageComponent (mechanic, manager). Root and admin hold the
 * admin bit only. Another fleet's component answers 404.
 */

const VIEWERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const SERIAL = 'matrix component';
const KIND = 'matrix kind';
const unknown: Outcome = { status: 404, error: 5 };

/** A battery of the demo fleet (or of the other fleet), in stock or mounted on a unit, written directly. */
async function seed({ t, fx }: CaseEnv, other = false, state: 'stock' | 'mounted' = 'stock') {
  const db = t.server.ctx.db.kysely;
  const fleetId = other ? fx.otherFleetId : fx.fleetId;
  const unit = other
    ? await db.selectFrom('units').select('id').where('fleet_id', '=', fleetId).executeTakeFirstOrThrow()
    : fx.unit;
  const at = Math.floor(Date.now() / 1000);
  const row = await db
    .insertInto('components')
    .values({ fleet_id: fleetId, kind: 'battery', serial: SERIAL, state, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (state === 'mounted')
    await db
      .insertInto('component_mounts')
      .values({
        component_id: row.id,
        fleet_id: fleetId,
        unit_id: unit.id,
        position: `matrix ${row.id}`,
        mounted_at: at,
        mount_odometer: 0,
        dismounted_at: null,
        dismount_odometer: null,
      })
      .execute();
  return row.id;
}

async function restore({ t }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  const ids = (await db.selectFrom('components').select('id').where('serial', '=', SERIAL).execute()).map(
    (r) => r.id,
  );
  if (ids.length) {
    await db.deleteFrom('component_mounts').where('component_id', 'in', ids).execute();
    await db.deleteFrom('component_treads').where('component_id', 'in', ids).execute();
    await db.deleteFrom('components').where('id', 'in', ids).execute();
  }
  await db.deleteFrom('component_kinds').where('name', 'like', `${KIND}%`).execute();
  await db.deleteFrom('component_settings').execute();
}

let seeded = 0;

async function seedKind({ t, fx }: CaseEnv, other = false) {
  const row = await t.server.ctx.db.kysely
    .insertInto('component_kinds')
    .values({ fleet_id: other ? fx.otherFleetId : fx.fleetId, name: `${KIND} ${++seeded}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const base = ({ fx }: CaseEnv) => `/api/fleets/${fx.fleetId}/components`;
const route = '/api/fleets/:fid/components';
const foreign = (ok: MatrixUser[]) => ({
  ...outcomes(ok),
  ...Object.fromEntries(ok.map((u) => [u, unknown])),
});

const action = (
  name: string,
  state: 'stock' | 'mounted',
  body: (env: CaseEnv) => unknown = () => ({}),
): RouteCase[] => [
  {
    route: `POST ${route}/:id/${name}`,
    build: async (env) => ({
      method: 'POST',
      url: `${base(env)}/${await seed(env, false, state)}/${name}`,
      body: body(env),
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `POST ${route}/:id/${name}`,
    label: 'a component of another fleet',
    build: async (env) => ({
      method: 'POST',
      url: `${base(env)}/${await seed(env, true, state)}/${name}`,
      body: body(env),
    }),
    expect: foreign(MANAGERS),
    restore,
  },
];

export const COMPONENT_CASES: RouteCase[] = [
  {
    route: `GET ${route}`,
    build: (env) => ({ method: 'GET', url: `${base(env)}?kind=tyre&state=stock` }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `POST ${route}`,
    build: (env) => ({
      method: 'POST',
      url: base(env),
      body: { kind: 'tyre', serial: SERIAL, brand: 'Matrix', cost: 120.5 },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `GET ${route}/kinds`,
    build: (env) => ({ method: 'GET', url: `${base(env)}/kinds` }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `POST ${route}/kinds`,
    build: (env) => ({ method: 'POST', url: `${base(env)}/kinds`, body: { name: KIND } }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `DELETE ${route}/kinds/:kid`,
    build: async (env) => ({ method: 'DELETE', url: `${base(env)}/kinds/${await seedKind(env)}` }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `DELETE ${route}/kinds/:kid`,
    label: 'a kind of another fleet',
    build: async (env) => ({ method: 'DELETE', url: `${base(env)}/kinds/${await seedKind(env, true)}` }),
    expect: foreign(MANAGERS),
    restore,
  },
  {
    route: `GET ${route}/settings`,
    build: (env) => ({ method: 'GET', url: `${base(env)}/settings` }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `PUT ${route}/settings`,
    build: (env) => ({ method: 'PUT', url: `${base(env)}/settings`, body: { tread_threshold: 2.5 } }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `GET ${route}/:id`,
    build: async (env) => ({ method: 'GET', url: `${base(env)}/${await seed(env)}` }),
    expect: outcomes(VIEWERS),
    restore,
  },
  {
    route: `GET ${route}/:id`,
    label: 'a component of another fleet',
    build: async (env) => ({ method: 'GET', url: `${base(env)}/${await seed(env, true)}` }),
    expect: foreign(VIEWERS),
    restore,
  },
  {
    route: `PUT ${route}/:id`,
    build: async (env) => ({ method: 'PUT', url: `${base(env)}/${await seed(env)}`, body: { brand: 'M' } }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `PUT ${route}/:id`,
    label: 'a component of another fleet',
    build: async (env) => ({
      method: 'PUT',
      url: `${base(env)}/${await seed(env, true)}`,
      body: { brand: 'M' },
    }),
    expect: foreign(MANAGERS),
    restore,
  },
  {
    route: `DELETE ${route}/:id`,
    build: async (env) => ({ method: 'DELETE', url: `${base(env)}/${await seed(env)}` }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `DELETE ${route}/:id`,
    label: 'a component of another fleet',
    build: async (env) => ({ method: 'DELETE', url: `${base(env)}/${await seed(env, true)}` }),
    expect: foreign(MANAGERS),
    restore,
  },
  ...action('mount', 'stock', (env) => ({ unit_id: env.fx.unit.id, position: `matrix ${Date.now()}` })),
  ...action('dismount', 'mounted'),
  ...action('retire', 'stock'),
  ...action('treads', 'stock', () => ({ depth: 5 })),
];
