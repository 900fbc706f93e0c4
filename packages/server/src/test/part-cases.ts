import { outcomes } from './attachment-cases.js';
import type { CaseEnv, MatrixUser, Outcome, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of parts, stock locations and purchase orders (docs/product.md "Parts and
 * stock"), spread into ROUTE_CASES of routes.ts. Reading needs viewPart (viewer, mechanic, manager hold
 * it), writing managePart (mechanic, manager). Another fleet's part, location or order answers 404.
 */

const VIEWERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const MARK = 'matrix-part';
const unknown: Outcome = { status: 404, error: 5 };
const foreign = (ok: MatrixUser[]) => ({
  ...outcomes(ok),
  ...Object.fromEntries(ok.map((u) => [u, unknown])),
});

interface Seeded {
  part: number;
  from: number;
  to: number;
  order: number;
  line: number;
}

/** A part with 100 in stock at one of two locations and an ordered purchase order of it. */
async function seed({ t, fx }: CaseEnv, other = false, status = 'ordered'): Promise<Seeded> {
  const db = t.server.ctx.db.kysely;
  const fleetId = other ? fx.otherFleetId : fx.fleetId;
  const at = Math.floor(Date.now() / 1000);
  const n = Math.random().toString(36).slice(2);
  const loc = async (name: string) =>
    (
      await db
        .insertInto('stock_locations')
        .values({ fleet_id: fleetId, name: `${MARK} ${name}`, kind: 'store', created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const from = await loc('A');
  const to = await loc('B');
  const { id: part } = await db
    .insertInto('parts')
    .values({
      fleet_id: fleetId,
      number: `${MARK}-${n}`,
      name: MARK,
      line_item_id: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('part_stock')
    .values({ part_id: part, location_id: from, fleet_id: fleetId, qty: 100_000, threshold: null })
    .execute();
  const { id: order } = await db
    .insertInto('purchase_orders')
    .values({
      fleet_id: fleetId,
      vendor: MARK,
      status,
      location_id: null,
      created_by: null,
      ordered_at: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: line } = await db
    .insertInto('purchase_order_lines')
    .values({
      purchase_order_id: order,
      fleet_id: fleetId,
      position: 0,
      part_id: part,
      qty: 5000,
      cost: 2000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { part, from, to, order, line };
}

async function restore({ t }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  await db.deleteFrom('purchase_orders').where('vendor', '=', MARK).execute();
  await db.deleteFrom('parts').where('name', '=', MARK).execute();
  await db.deleteFrom('stock_locations').where('name', 'like', `${MARK}%`).execute();
}

const P = '/api/fleets/:fid/parts';
const L = '/api/fleets/:fid/stock-locations';
const O = '/api/fleets/:fid/purchase-orders';
/** The URL is always of the demo fleet: another fleet's object must answer 404 there. */
const url = (env: CaseEnv, tail: string) => `/api/fleets/${env.fx.fleetId}${tail}`;

/** A case on a seeded object and the same on another fleet's (404 for those allowed). */
function both(
  method: string,
  route: string,
  ok: MatrixUser[],
  tail: (s: Seeded) => string,
  body?: (s: Seeded) => unknown,
  status = 'ordered',
): RouteCase[] {
  return [false, true].map((other) => ({
    route: `${method} ${route}`,
    ...(other && { label: 'another fleet’s' }),
    build: async (env: CaseEnv) => {
      const s = await seed(env, other, status);
      return { method, url: url(env, tail(s)), ...(body && { body: body(s) }) };
    },
    expect: other ? foreign(ok) : outcomes(ok),
    restore,
  }));
}

export const PART_CASES: RouteCase[] = [
  {
    route: `GET ${P}`,
    build: (env) => ({ method: 'GET', url: url(env, '/parts?q=x&low=0') }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `POST ${P}`,
    build: (env) => ({
      method: 'POST',
      url: url(env, '/parts'),
      body: { number: `${MARK}-${env.user}`, name: MARK, cost: 1.5 },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `GET ${P}/settings`,
    build: (env) => ({ method: 'GET', url: url(env, '/parts/settings') }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `PUT ${P}/settings`,
    build: (env) => ({
      method: 'PUT',
      url: url(env, '/parts/settings'),
      body: { allow_negative_stock: false },
    }),
    expect: outcomes(MANAGERS),
  },
  ...both('GET', `${P}/:id`, VIEWERS, (s) => `/parts/${s.part}`),
  ...both(
    'PUT',
    `${P}/:id`,
    MANAGERS,
    (s) => `/parts/${s.part}`,
    () => ({ manufacturer: 'Bosch' }),
  ),
  ...both('DELETE', `${P}/:id`, MANAGERS, (s) => `/parts/${s.part}`, undefined, 'draft').map((c) => ({
    ...c,
    expect: c.label ? c.expect : outcomes(MANAGERS, { status: 409, error: 10 }),
  })),
  ...both('GET', `${P}/:id/moves`, VIEWERS, (s) => `/parts/${s.part}/moves`),
  ...both(
    'POST',
    `${P}/:id/adjust`,
    MANAGERS,
    (s) => `/parts/${s.part}/adjust`,
    (s) => ({ location_id: s.from, delta: -1, reason: 'damage' }),
  ),
  ...both(
    'POST',
    `${P}/:id/transfer`,
    MANAGERS,
    (s) => `/parts/${s.part}/transfer`,
    (s) => ({ from: s.from, to: s.to, qty: 2 }),
  ),
  ...both(
    'PUT',
    `${P}/:id/stock/:location`,
    MANAGERS,
    (s) => `/parts/${s.part}/stock/${s.from}`,
    () => ({ threshold: 3 }),
  ),
  {
    route: `GET ${L}`,
    build: (env) => ({ method: 'GET', url: url(env, '/stock-locations') }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `POST ${L}`,
    build: (env) => ({
      method: 'POST',
      url: url(env, '/stock-locations'),
      body: { name: `${MARK} van`, kind: 'van' },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  ...both('GET', `${L}/:id`, VIEWERS, (s) => `/stock-locations/${s.to}`),
  ...both(
    'PUT',
    `${L}/:id`,
    MANAGERS,
    (s) => `/stock-locations/${s.to}`,
    () => ({ kind: 'van' }),
  ),
  ...both('DELETE', `${L}/:id`, MANAGERS, (s) => `/stock-locations/${s.to}`),
  {
    route: `GET ${O}`,
    build: (env) => ({ method: 'GET', url: url(env, '/purchase-orders?status=ordered') }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `POST ${O}`,
    build: (env) => ({ method: 'POST', url: url(env, '/purchase-orders'), body: { vendor: MARK } }),
    expect: outcomes(MANAGERS),
    restore,
  },
  ...both('GET', `${O}/:id`, VIEWERS, (s) => `/purchase-orders/${s.order}`),
  ...both(
    'PUT',
    `${O}/:id`,
    MANAGERS,
    (s) => `/purchase-orders/${s.order}`,
    () => ({ note: 'n' }),
  ),
  ...both('DELETE', `${O}/:id`, MANAGERS, (s) => `/purchase-orders/${s.order}`, undefined, 'draft'),
  ...both(
    'POST',
    `${O}/:id/order`,
    MANAGERS,
    (s) => `/purchase-orders/${s.order}/order`,
    () => ({}),
    'draft',
  ),
  ...both(
    'POST',
    `${O}/:id/cancel`,
    MANAGERS,
    (s) => `/purchase-orders/${s.order}/cancel`,
    () => ({}),
  ),
  ...both(
    'POST',
    `${O}/:id/receive`,
    MANAGERS,
    (s) => `/purchase-orders/${s.order}/receive`,
    (s) => ({ location_id: s.from, lines: [{ line_id: s.line, qty: 5 }] }),
  ),
];
