import { attachmentCases, outcomes } from './attachment-cases.js';
import type { CaseEnv, MatrixUser, Outcome, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the documents API (docs/product.md "Documents", "Store rights"), spread
 * into ROUTE_CASES of routes.ts. Reading needs viewDocument (viewer, mechanic, manager hold it through
 * their service rights); every write needs manageDocument (manager: interval and service rights). Root
 * and admin hold the admin bit only. Another fleet's document or type answers 404.
 */

const VIEWERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const MANAGERS: MatrixUser[] = ['manager'];
const NUMBER = 'matrix document';
const TYPE = 'matrix type';
const unknown: Outcome = { status: 404, error: 5 };
const DAY = 86_400;

/** A document of the demo fleet's first unit (or of the other fleet's), written directly. */
async function seed({ t, fx }: CaseEnv, other = false): Promise<number> {
  const db = t.server.ctx.db.kysely;
  const fleetId = other ? fx.otherFleetId : fx.fleetId;
  const unit = other
    ? await db.selectFrom('units').select('id').where('fleet_id', '=', fleetId).executeTakeFirstOrThrow()
    : fx.unit;
  const now = Math.floor(Date.now() / 1000);
  const validTo = now + 400 * DAY;
  const row = await db
    .insertInto('documents')
    .values({
      fleet_id: fleetId,
      owner_type: 'u',
      owner_id: unit.id,
      type: 'insurance',
      type_id: null,
      number: NUMBER,
      period_id: null,
      valid_from: now,
      valid_to: validTo,
      cost: 1000,
      remind_at: validTo - 30 * DAY,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const period = await db
    .insertInto('document_periods')
    .values({
      document_id: row.id,
      fleet_id: fleetId,
      number: NUMBER,
      valid_from: now,
      valid_to: validTo,
      cost: 1000,
      reminded_at: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('documents').set({ period_id: period.id }).where('id', '=', row.id).execute();
  return row.id;
}

async function seedType({ t, fx }: CaseEnv, other = false): Promise<number> {
  const row = await t.server.ctx.db.kysely
    .insertInto('document_types')
    .values({ fleet_id: other ? fx.otherFleetId : fx.fleetId, name: TYPE, reminder_days: 30, created_at: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes the documents and types the cases made. */
async function restore({ t }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  const rows = await db.selectFrom('documents').select('id').where('number', '=', NUMBER).execute();
  const ids = rows.map((r) => r.id);
  if (ids.length) {
    await db
      .deleteFrom('attachments')
      .where('owner_type', '=', 'document')
      .where('owner_id', 'in', ids)
      .execute();
    await db.deleteFrom('document_periods').where('document_id', 'in', ids).execute();
    await db.deleteFrom('documents').where('id', 'in', ids).execute();
  }
  await db.deleteFrom('document_types').where('name', '=', TYPE).execute();
}

const base = ({ fx }: CaseEnv) => `/api/fleets/${fx.fleetId}/documents`;
const typesBase = ({ fx }: CaseEnv) => `/api/fleets/${fx.fleetId}/document-types`;
const route = '/api/fleets/:fid/documents';
const typesRoute = '/api/fleets/:fid/document-types';
const foreign = (ok: MatrixUser[]) => ({
  ...outcomes(ok),
  ...Object.fromEntries(ok.map((u) => [u, unknown])),
});
const later = () => Math.floor(Date.now() / 1000) + 800 * DAY;

/** A case on a seeded document of the fleet, and the same on one of another fleet (404). */
const both = (
  method: 'GET' | 'PUT' | 'DELETE' | 'POST',
  suffix: string,
  ok: MatrixUser[],
  body?: () => unknown,
): RouteCase[] => [
  {
    route: `${method} ${route}/:id${suffix}`,
    build: async (env) => ({ method, url: `${base(env)}/${await seed(env)}${suffix}`, body: body?.() }),
    expect: outcomes(ok),
    restore,
  },
  {
    route: `${method} ${route}/:id${suffix}`,
    label: 'a document of another fleet',
    build: async (env) => ({ method, url: `${base(env)}/${await seed(env, true)}${suffix}`, body: body?.() }),
    expect: foreign(ok),
    restore,
  },
];

export const DOCUMENT_CASES: RouteCase[] = [
  {
    route: `GET ${route}`,
    build: (env) => ({ method: 'GET', url: `${base(env)}?state=attention&owner_type=u` }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `POST ${route}`,
    build: (env) => ({
      method: 'POST',
      url: base(env),
      body: {
        owner_type: 'u',
        owner_id: env.fx.unit.id,
        type: 'registration',
        number: NUMBER,
        valid_to: later(),
        cost: '12.5',
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
      body: {
        owner_type: 't',
        owner_id: env.fx.trailer.id,
        type: 'insurance',
        number: NUMBER,
        valid_to: later(),
      },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  ...both('GET', '', VIEWERS),
  ...both('PUT', '', MANAGERS, () => ({ issuer: 'matrix' })),
  ...both('DELETE', '', MANAGERS),
  ...both('POST', '/renew', MANAGERS, () => ({ valid_to: later(), cost: 10 })),
  {
    route: `GET ${typesRoute}`,
    build: (env) => ({ method: 'GET', url: typesBase(env) }),
    expect: outcomes(VIEWERS),
  },
  {
    route: `POST ${typesRoute}`,
    build: (env) => ({ method: 'POST', url: typesBase(env), body: { name: TYPE, reminder_days: 14 } }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `PUT ${typesRoute}/:id`,
    build: async (env) => ({
      method: 'PUT',
      url: `${typesBase(env)}/${await seedType(env)}`,
      body: { name: TYPE, reminder_days: 10 },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: `PUT ${typesRoute}/:id`,
    label: 'a type of another fleet',
    build: async (env) => ({
      method: 'PUT',
      url: `${typesBase(env)}/${await seedType(env, true)}`,
      body: { name: TYPE },
    }),
    expect: foreign(MANAGERS),
    restore,
  },
  {
    route: `DELETE ${typesRoute}/:id`,
    build: async (env) => ({ method: 'DELETE', url: `${typesBase(env)}/${await seedType(env)}` }),
    expect: outcomes(MANAGERS),
    restore,
  },
  ...attachmentCases({
    route,
    base,
    ownerType: 'document',
    seed: (env) => seed(env),
    restore,
    readers: VIEWERS,
    managers: MANAGERS,
  }),
];
