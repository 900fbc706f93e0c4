import { attachmentCases, outcomes } from './attachment-cases.js';
import { onRecord, type RecordApi } from './record-cases.js';
import type { CaseEnv, MatrixUser, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the issues API (docs/product.md "Issues", "Workshop rights"), spread into
 * ROUTE_CASES of routes.ts. Reading and reporting need reportIssue (the viewer, the mechanic and the
 * manager hold it); changing, the status actions and deleting need manageIssue (mechanic, manager).
 * Root and admin hold the admin bit only: an admin-only user sees no issues. Another fleet's issue
 * answers 404.
 */

const REPORTERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const TITLE = 'matrix issue';

/**
 * An open issue of the demo fleet's first unit (or of the other fleet's), written directly, reported by
 * the case's user: a reporter may add photos to their own open issue.
 */
async function seed({ t, fx, user }: CaseEnv, other = false): Promise<number> {
  const db = t.server.ctx.db.kysely;
  const fleetId = other ? fx.otherFleetId : fx.fleetId;
  const unit = other
    ? await db.selectFrom('units').select('id').where('fleet_id', '=', fleetId).executeTakeFirstOrThrow()
    : fx.unit;
  const now = Math.floor(Date.now() / 1000);
  const row = await db
    .insertInto('issues')
    .values({
      fleet_id: fleetId,
      object_type: 'u',
      object_id: unit.id,
      title: TITLE,
      priority: 2,
      status: 'open',
      reported_by: t.demo.users[user] ?? null,
      reported_at: now,
      mileage: null,
      engine_hours: null,
      work_order_id: null,
      inspection_id: null,
      inspection_item: null,
      ended_at: null,
      ended_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes the issues the cases made and their photos. */
async function restore({ t }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  const ids = (await db.selectFrom('issues').select('id').where('title', '=', TITLE).execute()).map(
    (r) => r.id,
  );
  if (ids.length === 0) return;
  await db.deleteFrom('attachments').where('owner_type', '=', 'issue').where('owner_id', 'in', ids).execute();
  await db.deleteFrom('issues').where('id', 'in', ids).execute();
}

const base = ({ fx }: CaseEnv) => `/api/fleets/${fx.fleetId}/issues`;
const route = '/api/fleets/:fid/issues';
const api: RecordApi = { route, base, seed, restore, foreignLabel: 'an issue of another fleet' };

export const ISSUE_CASES: RouteCase[] = [
  {
    route: `GET ${route}`,
    build: (env) => ({ method: 'GET', url: `${base(env)}?status=open&sort=priority` }),
    expect: outcomes(REPORTERS),
  },
  {
    route: `GET ${route}/summary`,
    build: (env) => ({ method: 'GET', url: `${base(env)}/summary` }),
    expect: outcomes(['manager', 'mechanic', 'viewer']),
  },
  {
    route: `POST ${route}`,
    build: (env) => ({
      method: 'POST',
      url: base(env),
      body: { object_type: 'u', object_id: env.fx.unit.id, title: TITLE, priority: 'low' },
    }),
    expect: outcomes(REPORTERS),
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
    expect: outcomes(REPORTERS),
    restore,
  },
  ...onRecord(api, 'GET', '', REPORTERS),
  ...onRecord(api, 'PUT', '', MANAGERS, { priority: 'high' }),
  ...onRecord(api, 'DELETE', '', MANAGERS),
  ...onRecord(api, 'POST', 'resolve', MANAGERS, {}),
  ...onRecord(api, 'POST', 'close', MANAGERS, { note: 'Not a defect' }),
  {
    route: `POST ${route}/:id/reopen`,
    label: 'a resolved issue',
    async build(env) {
      const id = await seed(env);
      await env.t.server.ctx.db.kysely
        .updateTable('issues')
        .set({ status: 'resolved' })
        .where('id', '=', id)
        .execute();
      return { method: 'POST', url: `${base(env)}/${id}/reopen`, body: {} };
    },
    expect: outcomes(MANAGERS),
    restore,
  },
  // Photos: readers see them; the case's user reported the seeded open issue, so every reporter may add
  // photos to it; deleting one needs manageIssue.
  ...attachmentCases({
    route,
    base,
    ownerType: 'issue',
    seed: (env) => seed(env),
    restore,
    readers: REPORTERS,
    managers: REPORTERS,
  }).map((c) =>
    c.route === `DELETE ${route}/:id/attachments/:aid` ? { ...c, expect: outcomes(MANAGERS) } : c,
  ),
];
