import { outcomes } from './attachment-cases.js';
import { onRecord, type RecordApi } from './record-cases.js';
import type { CaseEnv, MatrixUser, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the work-orders API (docs/product.md "Work orders", "Workshop rights"),
 * spread into ROUTE_CASES of routes.ts. Reading needs viewWorkOrder (viewer, mechanic, manager hold it);
 * every write and action needs manageWorkOrder (mechanic, manager). Root and admin hold the admin bit
 * only: an admin-only user sees no work orders. Another fleet's work order answers 404.
 */

const VIEWERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const TITLE = 'matrix work order';

/** An open work order of the demo fleet's first unit (or of the other fleet's), written directly. */
async function seed({ t, fx }: CaseEnv, other = false, status = 'open'): Promise<number> {
  const db = t.server.ctx.db.kysely;
  const fleetId = other ? fx.otherFleetId : fx.fleetId;
  const unit = other
    ? await db.selectFrom('units').select('id').where('fleet_id', '=', fleetId).executeTakeFirstOrThrow()
    : fx.unit;
  const now = Math.floor(Date.now() / 1000);
  const row = await db
    .insertInto('work_orders')
    .values({
      fleet_id: fleetId,
      object_type: 'u',
      object_id: unit.id,
      title: TITLE,
      status,
      assignee_id: null,
      created_by: null,
      scheduled_start: null,
      scheduled_end: null,
      actual_start: status === 'in_progress' ? now : null,
      actual_end: null,
      mileage: null,
      engine_hours: null,
      downtime_start: null,
      service_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes the work orders the cases made, and the service records a completion archived. */
async function restore({ t }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  const rows = await db
    .selectFrom('work_orders')
    .select(['id', 'service_id'])
    .where('title', '=', TITLE)
    .execute();
  if (rows.length === 0) return;
  await db
    .deleteFrom('work_orders')
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const services = rows.map((r) => r.service_id).filter((id): id is number => id !== null);
  if (services.length) {
    await db.deleteFrom('service_line_items').where('service_id', 'in', services).execute();
    await db.deleteFrom('services').where('id', 'in', services).execute();
  }
}

const base = ({ fx }: CaseEnv) => `/api/fleets/${fx.fleetId}/work-orders`;
const route = '/api/fleets/:fid/work-orders';
const api: RecordApi = {
  route,
  base,
  seed: (env, other) => seed(env, other),
  restore,
  foreignLabel: 'a work order of another fleet',
};

/** An action on a work order in `status`. */
const action = (name: string, status = 'open', body: unknown = {}): RouteCase[] =>
  onRecord(api, 'POST', name, MANAGERS, body, (env, other) => seed(env, other, status));

export const WORK_ORDER_CASES: RouteCase[] = [
  {
    route: `GET ${route}/assignees`,
    build: (env) => ({ method: 'GET', url: `${base(env)}/assignees` }),
    expect: outcomes(MANAGERS),
  },
  {
    route: `GET ${route}`,
    build: (env) => ({ method: 'GET', url: `${base(env)}?status=open,in_progress&overdue=1&sort=scheduled` }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `POST ${route}`,
    build: (env) => ({
      method: 'POST',
      url: base(env),
      body: {
        object_type: 'u',
        object_id: env.fx.unit.id,
        title: TITLE,
        li: [{ n: 'Matrix part', t: 2, q: 1, c: 10 }],
      },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `POST ${route}`,
    label: 'a trailer of the fleet',
    build: (env) => ({
      method: 'POST',
      url: base(env),
      body: { object_type: 't', object_id: env.fx.trailer.id, title: TITLE },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  ...onRecord(api, 'GET', '', VIEWERS),
  ...onRecord(api, 'PUT', '', MANAGERS, { description: 'matrix' }),
  ...onRecord(api, 'DELETE', '', MANAGERS),
  ...action('start'),
  ...action('hold', 'in_progress'),
  ...action('complete', 'in_progress', { mileage: null }),
  ...action('cancel'),
];
