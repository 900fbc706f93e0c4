import type { FastifyInstance } from 'fastify';
import { ADMIN_CASES } from './admin-cases.js';
import { ASSIGNMENT_CASES } from './assignment-cases.js';
import { attachmentCases } from './attachment-cases.js';
import { COMPONENT_CASES } from './component-cases.js';
import { CUSTOM_FIELD_CASES } from './customfield-cases.js';
import { DOCUMENT_CASES } from './document-cases.js';
import { FAULT_CODE_CASES } from './fault-code-cases.js';
import { FLEET_TRANSFER_CASES } from './fleet-transfer-cases.js';
import { FUEL_CASES } from './fuel-cases.js';
import type { TestServer } from './harness.js';
import { IMPORT_CASES } from './imports-cases.js';
import { INSPECTION_CASES } from './inspection-cases.js';
import { ISSUE_CASES } from './issue-cases.js';
import { MAINTENANCE_CASES } from './maintenance-cases.js';
import {
  ACCOUNT_ADMINS,
  EVERYONE,
  FLEET_ADMINS,
  FLEET_MEMBERS,
  type MatrixFixtures,
  OBJECT_EDITORS,
  outcomes,
  type RouteCase,
  unknownToOutsider,
} from './matrix.js';
import { METER_CASES } from './meter-cases.js';
import { NOTIFICATION_CASES } from './notification-cases.js';
import { NOTIFICATION_CHANNEL_CASES } from './notification-channel-cases.js';
import { OBJECTS_ADMIN_CASES } from './objects-admin-cases.js';
import { PART_CASES } from './part-cases.js';
import { REPORT_CASES } from './report-cases.js';
import { REPORT_MAIL_CASES } from './reportmails-cases.js';
import { SERVICE_CASES } from './service-cases.js';
import { STATISTICS_CASES } from './statistics-cases.js';
import { USER_CASES } from './user-cases.js';
import { WORK_ORDER_CASES } from './work-order-cases.js';

export type { CaseEnv, CaseRequest, MatrixFixtures, MatrixUser, Outcome, RouteCase } from './matrix.js';
export { MATRIX_USERS } from './matrix.js';
/**
 * The route catalogue of the permission matrix (spec §6, DESIGN §5): every authenticated /api route,
 * with a valid request against the demo fleet and the outcome each demo user must get.
 *
 * Effective acl of the demo users on the demo fleet (auth/access.ts `effectiveAcl`):
 * - root: super user, no membership → admin bit only (an admin-only view of every fleet);
 * - admin: account admin of the demo account and member with admin → admin bit only;
 * - manager: member with every bit, admin included (ACL_ALL);
 * - mechanic: viewInterval | viewService | manageService; viewer: viewInterval | viewService;
 * - outsider: nothing (member of Northwind only).
 *
 * A later module adds its routes here; the coverage test in http/permissions.http.test.ts fails until it
 * does.
 */

/** Routes answered without a session, or not part of the fleet/user/admin API (DESIGN §3, §4, §5). */
export const UNCATALOGUED_ROUTES: { route: string; why: string }[] = [
  { route: 'POST /api/login', why: 'public: login' },
  { route: 'GET /api/auth', why: 'public: opens a session from a token' },
  { route: 'GET /api/ping', why: 'public: liveness' },
  { route: 'GET /api/setup', why: 'public: first-run state, asked before any login (setup suite)' },
  {
    route: 'POST /api/setup',
    why: 'public: first run, only while no user exists (setup suite: 409 afterwards, race, validation)',
  },
  {
    route: 'POST /api/client_errors',
    why: 'public: client fault reports, also before login (client-errors suite)',
  },
  { route: 'GET /api/openapi.json', why: 'public: API description' },
  { route: '* /api/docs', why: 'public: browsable API description (swagger-ui and its assets)' },
  { route: 'GET /api/ingest/osmand', why: 'telematics: public, authenticated by the device id' },
  { route: 'POST /api/ingest/osmand', why: 'telematics: public, authenticated by the device id' },
  {
    route: 'POST /api/ingest/traccar',
    why: 'telematics: public, authenticated by the device id and TRACCAR_FORWARD_TOKEN (traccar suite)',
  },
  { route: 'POST /api/ingest/batch', why: 'telematics gateway batch: fleet admin, telematics suite' },
  {
    route: 'GET /api/gis/tiles/:z/:x/:y',
    why: 'map tiles: session in the sid query (img requests), platform suite',
  },
];

export function isUncatalogued(method: string, path: string): boolean {
  return UNCATALOGUED_ROUTES.some(({ route }) => {
    const [m, p] = route.split(' ') as [string, string];
    if (m === '*') return path === p || path.startsWith(`${p}/`);
    return m === method && normalizePath(p) === path;
  });
}

export const ROUTE_CASES: RouteCase[] = [
  // --- services (spec §7 "Services"; cases in service-cases.ts) ---
  ...SERVICE_CASES,
  ...FUEL_CASES, // fuel fillings (spec §7 "Fuel fillings"; fuel-cases.ts)
  ...IMPORT_CASES, // the import flow (imports-cases.ts)
  ...METER_CASES, // a unit's meter history (meter-cases.ts)
  ...FAULT_CODE_CASES, // a unit's fault codes (fault-code-cases.ts)
  ...ASSIGNMENT_CASES, // vehicle assignments (assignment-cases.ts)
  ...INSPECTION_CASES, // inspection forms and inspections (inspection-cases.ts)
  ...ISSUE_CASES, // issues of units and trailers (issue-cases.ts)
  ...WORK_ORDER_CASES, // work orders (work-order-cases.ts)
  ...DOCUMENT_CASES, // documents (document-cases.ts)
  ...COMPONENT_CASES, // tyres and other components (component-cases.ts)
  ...PART_CASES, // parts, stock locations, purchase orders (part-cases.ts)
  // --- fleets (spec §7 "Fleet") ---
  {
    route: 'GET /api/fleets',
    build: () => ({ method: 'GET', url: '/api/fleets' }),
    expect: outcomes(EVERYONE),
  },
  {
    route: 'PUT /api/fleets/:id',
    build: ({ fx }) => ({ method: 'PUT', url: `/api/fleets/${fx.fleetId}`, body: { cur: fx.fleet.cur } }),
    expect: outcomes(FLEET_ADMINS),
  },
  {
    route: 'GET /api/fleets/:id/users',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/users` }),
    expect: outcomes(FLEET_ADMINS),
  },
  {
    route: 'PUT /api/fleets/:id/users',
    label: 'the same access list',
    build: ({ fx }) => ({
      method: 'PUT',
      url: `/api/fleets/${fx.fleetId}/users`,
      body: { users: fx.members },
    }),
    expect: outcomes(FLEET_ADMINS),
  },
  {
    route: 'PUT /api/fleets/:id/entities',
    label: 'the same driver binding',
    build: ({ fx }) => ({
      method: 'PUT',
      url: `/api/fleets/${fx.fleetId}/entities`,
      body: { drivers: fx.driverIds },
    }),
    expect: outcomes(FLEET_ADMINS),
  },
  ...(['units', 'drivers', 'trailers'] as const).map(
    (kind): RouteCase => ({
      route: `GET /api/fleets/:id/${kind}`,
      build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/${kind}` }),
      expect: outcomes(FLEET_MEMBERS),
    }),
  ),
  ...(['drivers', 'trailers'] as const).map(
    (kind): RouteCase => ({
      route: `GET /api/fleets/:id/user/${kind}`,
      build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/user/${kind}` }),
      expect: outcomes(FLEET_ADMINS),
    }),
  ),
  {
    route: 'PUT /api/fleets/:fid/units/:id',
    label: 'unit type',
    build: ({ fx }) => ({
      method: 'PUT',
      url: `/api/fleets/${fx.fleetId}/units/${fx.unit.id}`,
      body: { ut: fx.unit.ut },
    }),
    expect: outcomes(OBJECT_EDITORS),
  },
  {
    route: 'PUT /api/fleets/:fid/units/:id',
    label: 'rename (admin only)',
    build: ({ fx }) => ({
      method: 'PUT',
      url: `/api/fleets/${fx.fleetId}/units/${fx.unit.id}`,
      body: { nm: `${fx.unit.name} (renamed)` },
    }),
    need: 'fleet.admin',
    expect: outcomes(FLEET_ADMINS),
    async restore({ t, fx }) {
      await t.server.ctx.db.kysely
        .updateTable('units')
        .set({ name: fx.unit.name })
        .where('id', '=', fx.unit.id)
        .execute();
    },
  },
  // The unit photo (docs/product.md "The vehicle profile"): members see it, object editors change it.
  ...attachmentCases({
    route: '/api/fleets/:fid/units',
    base: ({ fx }) => `/api/fleets/${fx.fleetId}/units`,
    ownerType: 'unit',
    seed: async ({ fx }) => fx.unit.id,
    async restore({ t, fx }) {
      const db = t.server.ctx.db.kysely;
      await db.deleteFrom('attachments').where('owner_type', '=', 'unit').execute();
      await db.updateTable('units').set({ photo_id: null }).where('id', '=', fx.unit.id).execute();
    },
    readers: [...FLEET_MEMBERS],
    managers: [...OBJECT_EDITORS],
  }),
  {
    route: 'PUT /api/drivers/:id',
    build: ({ fx }) => ({ method: 'PUT', url: `/api/drivers/${fx.driver.id}`, body: { c: fx.driver.c } }),
    expect: { ...outcomes(OBJECT_EDITORS), ...unknownToOutsider },
  },
  {
    route: 'PUT /api/trailers/:id',
    build: ({ fx }) => ({ method: 'PUT', url: `/api/trailers/${fx.trailer.id}`, body: { c: fx.trailer.c } }),
    expect: { ...outcomes(OBJECT_EDITORS), ...unknownToOutsider },
  },
  {
    route: 'POST /api/fleets/:id/pullcounters',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/fleets/${fx.fleetId}/pullcounters`,
      body: { units: [fx.unit.id] },
    }),
    expect: outcomes(FLEET_ADMINS),
    async restore({ t, fx }) {
      await t.server.ctx.db.kysely
        .updateTable('units')
        .set({ pulled_mileage: 0, pulled_engine_hours: 0 })
        .where('id', '=', fx.unit.id)
        .execute();
    },
  },

  ...MAINTENANCE_CASES,
  ...OBJECTS_ADMIN_CASES, // creating fleets and service objects (objects-admin-cases.ts)
  // --- statistics (spec §7 "Fleet"; cases in statistics-cases.ts) ---
  ...STATISTICS_CASES,
  ...REPORT_CASES, // reports and their exports (report-cases.ts)
  ...REPORT_MAIL_CASES, // report mails and "send now" (reportmails-cases.ts)
  // --- custom fields (spec §7 "Custom fields"; cases in customfield-cases.ts) ---
  ...CUSTOM_FIELD_CASES,
  ...NOTIFICATION_CASES, // in-app notifications and set-ups (notification-cases.ts)
  ...NOTIFICATION_CHANNEL_CASES, // e-mail, bot and webhook set-ups, deliveries (notification-channel-cases.ts)
  // --- admin (spec §7 "Admin") ---
  ...ADMIN_CASES,
  {
    route: 'GET /api/admin/accounts',
    build: () => ({ method: 'GET', url: '/api/admin/accounts' }),
    expect: outcomes(ACCOUNT_ADMINS),
  },
  {
    route: 'PUT /api/admin/accounts/:id',
    label: 'activate the demo account',
    build: ({ fx }) => ({ method: 'PUT', url: `/api/admin/accounts/${fx.demoAccountId}`, body: { s: 1 } }),
    // The account admin passes the check but may not change its own account (invalid input).
    expect: { ...outcomes(['root']), admin: { status: 400, error: 4 } },
  },
  {
    route: 'PUT /api/admin/accounts/:id',
    label: 'activate the Northwind account',
    build: ({ fx }) => ({ method: 'PUT', url: `/api/admin/accounts/${fx.otherAccountId}`, body: { s: 1 } }),
    // Northwind is not below the demo account; its own user is no account admin.
    narrower: "Northwind lies outside the demo account admin's subtree",
    expect: outcomes(['root']),
  },

  // --- user, session and platform calls (spec §7 "User", DESIGN §3, §4; cases in user-cases.ts) ---
  ...USER_CASES,
  ...FLEET_TRANSFER_CASES, // fleet export, import and LubeLogger migration (fleet-transfer-cases.ts)
];

/** Reads the ids and values the catalogue's requests use from the freshly seeded database. */
export async function loadFixtures(t: TestServer): Promise<MatrixFixtures> {
  const db = t.server.ctx.db.kysely;
  const fleetId = t.demo.fleetId;
  const fleet = await db
    .selectFrom('fleets')
    .select('cur')
    .where('id', '=', fleetId)
    .executeTakeFirstOrThrow();
  const unit = await db
    .selectFrom('units')
    .select(['id', 'name', 'unit_type_id'])
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const drivers = await db
    .selectFrom('drivers')
    .select(['id', 'c'])
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const trailer = await db
    .selectFrom('trailers')
    .select(['id', 'c'])
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const members = await db
    .selectFrom('fleet_users')
    .select(['user_id as id', 'acl', 'assigned_only as ao'])
    .where('fleet_id', '=', fleetId)
    .orderBy('user_id')
    .execute();
  const accountOf = async (fid: number) =>
    (await db.selectFrom('fleets').select('account_id').where('id', '=', fid).executeTakeFirstOrThrow())
      .account_id;
  return {
    fleetId,
    otherFleetId: t.demo.otherFleetId,
    fleet,
    unit: { id: unit.id, name: unit.name, ut: unit.unit_type_id },
    driver: drivers[0]!,
    trailer,
    driverIds: drivers.map((d) => d.id),
    members,
    demoAccountId: await accountOf(fleetId),
    otherAccountId: await accountOf(t.demo.otherFleetId),
  };
}

/**
 * Every route of the app as `METHOD /path`, read from `printRoutes`. Parameter names are replaced by
 * `:` because routes sharing a tree node print all their names at once (`/:id|:fid`). HEAD routes that
 * Fastify adds beside each GET are left out.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const out = new Set<string>();
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line.trimEnd());
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    if (!match[3]) continue;
    const path = normalizePath(stack.join(''));
    for (const method of match[3].split(',').map((m) => m.trim())) {
      if (method !== 'HEAD') out.add(`${method} ${path}`);
    }
  }
  return [...out].sort();
}

/** `/api/fleets/:fid/units/:id` → `/api/fleets/:/units/:` (see `registeredRoutes`). */
export function normalizePath(path: string): string {
  return path.replace(/:[^/]+/g, ':');
}

/** `/api/fleets/:fid/units/:id` → `/api/fleets/{fid}/units/{id}`, as the OpenAPI document writes it. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}
