import { forgetAccountTree } from '../auth/access.js';
import { ACCOUNT_ADMINS, type CaseEnv, outcomes, type RouteCase } from './matrix.js';

/**
 * Permission-matrix cases of account creation and user administration (PRODUCT.md "Administration";
 * modules/admin/user-routes.ts), spread into ROUTE_CASES of routes.ts. Every route
 * needs `account.admin`: root everywhere, the demo account admin within the demo account's subtree
 * only (Northwind lies outside it); manager holds the fleet admin bit but is no account admin.
 */

const ACCOUNT = 'matrix account';
const LOGIN = 'matrix-user';
const PASSWORD = 'matrix-password-1';

/** Removes the accounts and users the cases made (leftovers of denied cells included). */
async function cleanUp({ t }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  await db.deleteFrom('users').where('name', 'like', `${LOGIN}%`).execute();
  await db.deleteFrom('accounts').where('name', '=', ACCOUNT).execute();
  forgetAccountTree(t.server.ctx);
}

/** A throwaway user of the demo account, written directly (no login needed). */
async function throwaway(env: CaseEnv): Promise<number> {
  await cleanUp(env);
  const row = await env.t.server.ctx.db.kysely
    .insertInto('users')
    .values({
      account_id: env.fx.demoAccountId,
      name: `${LOGIN}-target`,
      full_name: 'Matrix target',
      password_hash: 'none',
      su: 0,
      admin: 0,
      settings: '{}',
      fid: null,
      created_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function userId({ t }: CaseEnv, name: string): Promise<number> {
  const row = await t.server.ctx.db.kysely
    .selectFrom('users')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

export const ADMIN_CASES: RouteCase[] = [
  {
    route: 'POST /api/admin/accounts',
    label: "below the caller's own account",
    build: () => ({ method: 'POST', url: '/api/admin/accounts', body: { n: ACCOUNT } }),
    expect: outcomes(ACCOUNT_ADMINS),
    restore: cleanUp,
  },
  {
    route: 'POST /api/admin/accounts',
    label: 'below Northwind',
    build: ({ fx }) => ({
      method: 'POST',
      url: '/api/admin/accounts',
      body: { n: ACCOUNT, parent: fx.otherAccountId },
    }),
    narrower: "Northwind lies outside the demo account admin's subtree",
    expect: outcomes(['root']),
    restore: cleanUp,
  },
  {
    route: 'GET /api/admin/accounts/:id/users',
    label: 'the demo account',
    build: ({ fx }) => ({ method: 'GET', url: `/api/admin/accounts/${fx.demoAccountId}/users` }),
    expect: outcomes(ACCOUNT_ADMINS),
  },
  {
    route: 'GET /api/admin/accounts/:id/users',
    label: 'Northwind',
    build: ({ fx }) => ({ method: 'GET', url: `/api/admin/accounts/${fx.otherAccountId}/users` }),
    narrower: "Northwind lies outside the demo account admin's subtree",
    expect: outcomes(['root']),
  },
  {
    route: 'POST /api/admin/accounts/:id/users',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/admin/accounts/${fx.demoAccountId}/users`,
      body: { nm: LOGIN, n: 'Matrix user', password: PASSWORD },
    }),
    expect: outcomes(ACCOUNT_ADMINS),
    restore: cleanUp,
  },
  {
    route: 'PUT /api/admin/users/:id',
    label: "the viewer's own name again",
    build: async (env) => ({
      method: 'PUT',
      url: `/api/admin/users/${await userId(env, 'viewer')}`,
      body: { nm: 'viewer' },
    }),
    expect: outcomes(ACCOUNT_ADMINS),
  },
  {
    route: 'PUT /api/admin/users/:id/password',
    label: 'a throwaway user',
    build: async (env) => ({
      method: 'PUT',
      url: `/api/admin/users/${await throwaway(env)}/password`,
      body: { password: PASSWORD },
    }),
    expect: outcomes(ACCOUNT_ADMINS),
    restore: cleanUp,
  },
  {
    route: 'DELETE /api/admin/users/:id',
    label: 'a throwaway user',
    build: async (env) => ({ method: 'DELETE', url: `/api/admin/users/${await throwaway(env)}` }),
    expect: outcomes(ACCOUNT_ADMINS),
    restore: cleanUp,
  },
];
