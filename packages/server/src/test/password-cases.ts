import { hashPassword } from '../auth/secrets.js';
import { DEMO_PASSWORD } from './harness.js';
import { EVERYONE, outcomes, type RouteCase } from './matrix.js';

/**
 * Permission-matrix cases of the own password change, spread into ROUTE_CASES of
 * routes.ts. Every signed-in user may change their own password; the call keeps the calling session.
 */

let demoHash: Promise<string> | undefined;

export const PASSWORD_CASES: RouteCase[] = [
  {
    route: 'PUT /api/user/password',
    build: () => ({
      method: 'PUT',
      url: '/api/user/password',
      body: { old: DEMO_PASSWORD, new: 'matrix-password-1' },
    }),
    expect: outcomes(EVERYONE),
    // The demo password back, so that later logins of this user work.
    async restore({ t, user }) {
      demoHash ??= hashPassword(DEMO_PASSWORD);
      await t.server.ctx.db.kysely
        .updateTable('users')
        .set({ password_hash: await demoHash })
        .where('name', '=', user)
        .execute();
    },
  },
];
