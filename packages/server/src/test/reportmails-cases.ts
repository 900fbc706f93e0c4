import { rmDb } from '../modules/reportmails/tables.js';
import { type MatrixUser, outcomes } from './matrix.js';
import type { CaseEnv, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the report mails (spec §7 "Report mails"; decisions in core
 * contracts/reportmails.ts), spread into ROUTE_CASES of routes.ts. Reading needs `report.view`
 * (viewService: manager, mechanic, viewer); writing and "send now" need `report.mail` (viewService and
 * the admin bit: manager). Root and admin hold the admin bit only; the outsider is no member. The matrix
 * servers have no SMTP_URL, so an allowed "send now" answers 409 `{error: 10}`.
 */

const NAME = 'matrix report mail';
const READERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const WRITERS: MatrixUser[] = ['manager'];
/** Northwind: its own user (every bit); root holds the admin bit only there too. */
const NORTHWIND: MatrixUser[] = ['outsider'];

const BODY = {
  name: NAME,
  recipients: ['fleet@example.com'],
  report: 'fuel',
  format: 'csv',
  every: 'weekly',
  weekday: 1,
  hour: 6,
  lang: 'en',
};

/** A report mail of a fleet, written directly. */
async function seedMail({ t, fx }: CaseEnv, fleetId = fx.fleetId): Promise<number> {
  const row = await rmDb(t.server.ctx)
    .insertInto('report_mails')
    .values({
      fleet_id: fleetId,
      owner_id: fx.members[0]?.id ?? 1,
      name: NAME,
      enabled: 1,
      recipients: '["fleet@example.com"]',
      report: 'fuel',
      grouping: 'none',
      ot: null,
      ids: '[]',
      format: 'csv',
      every: 'weekly',
      weekday: 1,
      monthday: '1',
      hour: 6,
      lang: 'en',
      next_due: null,
      last_sent: null,
      last_ok: null,
      last_result: null,
      created_at: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function restore({ t }: CaseEnv) {
  await rmDb(t.server.ctx).deleteFrom('report_mails').where('name', '=', NAME).execute();
}

const base = ({ fx }: CaseEnv) => `/api/fleets/${fx.fleetId}/reportmails`;
const path = '/api/fleets/:fid/reportmails';

/** The allowed users get `outcome`, the others 403. */
function allowedGet(users: readonly MatrixUser[], status: number, error: number) {
  const out = outcomes(users);
  for (const u of users) out[u] = { status, error };
  return out;
}

export const REPORT_MAIL_CASES: RouteCase[] = [
  {
    route: `GET ${path}`,
    build: (env) => ({ method: 'GET', url: base(env) }),
    expect: outcomes(READERS),
  },
  {
    route: `GET ${path}`,
    label: "the outsider's fleet",
    otherFleet: true,
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.otherFleetId}/reportmails` }),
    expect: outcomes(NORTHWIND),
  },
  {
    route: `POST ${path}`,
    build: (env) => ({ method: 'POST', url: base(env), body: BODY }),
    expect: outcomes(WRITERS),
    restore,
  },
  {
    route: `GET ${path}/:id`,
    build: async (env) => ({ method: 'GET', url: `${base(env)}/${await seedMail(env)}` }),
    expect: outcomes(READERS),
    restore,
  },
  {
    route: `GET ${path}/:id`,
    label: "a report mail of the outsider's fleet through the demo fleet",
    build: async (env) => ({
      method: 'GET',
      url: `${base(env)}/${await seedMail(env, env.fx.otherFleetId)}`,
    }),
    // Allowed on the demo fleet, but the mail is not the demo fleet's: not found.
    expect: allowedGet(READERS, 404, 5),
    restore,
  },
  {
    route: `PUT ${path}/:id`,
    build: async (env) => ({
      method: 'PUT',
      url: `${base(env)}/${await seedMail(env)}`,
      body: { hour: 7 },
    }),
    expect: outcomes(WRITERS),
    restore,
  },
  {
    route: `PUT ${path}/:id`,
    label: "a report mail of the outsider's fleet through the demo fleet",
    build: async (env) => ({
      method: 'PUT',
      url: `${base(env)}/${await seedMail(env, env.fx.otherFleetId)}`,
      body: { hour: 7 },
    }),
    expect: allowedGet(WRITERS, 404, 5),
    restore,
  },
  {
    route: `DELETE ${path}/:id`,
    build: async (env) => ({ method: 'DELETE', url: `${base(env)}/${await seedMail(env)}` }),
    expect: outcomes(WRITERS),
    restore,
  },
  {
    route: `POST ${path}/:id/send`,
    build: async (env) => ({ method: 'POST', url: `${base(env)}/${await seedMail(env)}/send`, body: {} }),
    // The matrix servers have no SMTP_URL: the allowed user is told so (409), nothing is sent.
    expect: allowedGet(WRITERS, 409, 10),
    restore,
  },
];
