import { now } from '../context.js';
import { attachmentCases, outcomes } from './attachment-cases.js';
import { seedService } from './removal-fixture.js';
import type { CaseEnv, MatrixUser, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the services API (spec §6), spread into ROUTE_CASES of routes.ts.
 * Reading needs viewService and viewInterval; open services need manageService too; the archive needs
 * archiveEdit or archiveDelete. Only the manager holds archive rights; root and admin hold the admin
 * bit only, which grants no service rights; the outsider is no member.
 */

const READERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const ARCHIVISTS: MatrixUser[] = ['manager'];
const NAME = 'matrix service';

/** A service of the demo fleet's first unit, written directly: Due (129) unless `f` says otherwise. */
function seed({ t, fx }: CaseEnv, f = 129): Promise<number> {
  const plannedDate = f === 129 ? now() + 86400 : null;
  return seedService(t.server.ctx.db.kysely, fx.fleetId, 'u', fx.unit.id, f, null, {
    name: NAME,
    plannedDate,
  });
}

/** Removes what the cases made, and the in-progress marker a confirmation set on the unit. */
async function restore({ t, fx }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  const ids = (
    await db
      .selectFrom('services')
      .select('id')
      .where('fleet_id', '=', fx.fleetId)
      .where('name', 'like', 'matrix%')
      .execute()
  ).map((r) => r.id);
  if (ids.length) {
    await db
      .deleteFrom('attachments')
      .where('owner_type', '=', 'service')
      .where('owner_id', 'in', ids)
      .execute();
    await db.deleteFrom('services').where('id', 'in', ids).execute();
  }
  await db.updateTable('units').set({ ins: 0 }).where('id', '=', fx.unit.id).execute();
}

const base = (env: CaseEnv) => `/api/fleets/${env.fx.fleetId}/services`;

export const SERVICE_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/services',
    build: (env) => ({ method: 'GET', url: base(env) }),
    expect: outcomes(READERS),
  },
  {
    route: 'POST /api/fleets/:fid/services',
    build: (env) => ({
      method: 'POST',
      url: base(env),
      body: { n: NAME, t: 'u', uid: env.fx.unit.id, f: 1 },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'POST /api/fleets/:fid/services/batch',
    build: (env) => ({
      method: 'POST',
      url: `${base(env)}/batch`,
      body: { services: [{ n: NAME, t: 'u', uid: env.fx.unit.id, f: 8, total_cost: '1.5' }] },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/services/batch',
    build: async (env) => ({
      method: 'PUT',
      url: `${base(env)}/batch`,
      body: { services: [{ id: await seed(env), description: 'batch' }] },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'POST /api/fleets/:fid/services/status/batch',
    build: async (env) => ({
      method: 'POST',
      url: `${base(env)}/status/batch`,
      body: { f: 16, services: [await seed(env)] },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/services/archived',
    build: (env) => ({ method: 'GET', url: `${base(env)}/archived?from=2020-01-01&to=2020-12-31` }),
    expect: outcomes(READERS),
  },
  {
    route: 'PUT /api/fleets/:fid/services/archived/:id',
    build: async (env) => ({
      method: 'PUT',
      url: `${base(env)}/archived/${await seed(env, 8)}`,
      body: { description: 'corrected' },
    }),
    expect: outcomes(ARCHIVISTS),
    restore,
  },
  {
    route: 'DELETE /api/fleets/:fid/services/archived/batch',
    build: async (env) => ({
      method: 'DELETE',
      url: `${base(env)}/archived/batch`,
      body: { services: [await seed(env, 8)] },
    }),
    expect: outcomes(ARCHIVISTS),
    restore,
  },
  {
    route: 'DELETE /api/fleets/:fid/services/archived/:id',
    build: async (env) => ({ method: 'DELETE', url: `${base(env)}/archived/${await seed(env, 8)}` }),
    expect: outcomes(ARCHIVISTS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/services/:id',
    build: async (env) => ({ method: 'GET', url: `${base(env)}/${await seed(env)}` }),
    expect: outcomes(READERS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/services/:id',
    build: async (env) => ({
      method: 'PUT',
      url: `${base(env)}/${await seed(env)}`,
      body: { description: 'x' },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/services/:id/confirm',
    build: async (env) => ({ method: 'PUT', url: `${base(env)}/${await seed(env)}/confirm`, body: {} }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'POST /api/fleets/:fid/services/:id/status',
    build: async (env) => ({
      method: 'POST',
      url: `${base(env)}/${await seed(env)}/status`,
      body: { f: 16 },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  ...attachmentCases({
    route: '/api/fleets/:fid/services',
    base,
    ownerType: 'service',
    seed: (env) => seed(env),
    restore,
    readers: READERS,
    managers: MANAGERS,
  }),
];
