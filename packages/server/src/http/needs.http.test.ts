import { aclSatisfies, type FleetNeedName, isFleetNeed, NEEDS, type NeedName } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';
import {
  type CaseEnv,
  loadFixtures,
  MATRIX_USERS,
  type MatrixFixtures,
  type MatrixUser,
  ROUTE_CASES,
  type RouteCase,
} from '../test/routes.js';
import type { RouteDeclaration } from './needs.js';

/**
 * The named needs (core `needs.ts`) are the one source of the permission rules: the matrix's expected
 * outcomes must follow from each route's declared need, and a caller without the need is refused before
 * its body is parsed or validated.
 */
describe('declared permission needs', () => {
  let t: TestServer;
  let fx: MatrixFixtures;
  const sessions = new Map<MatrixUser, Client>();
  const who = new Map<MatrixUser, { su: boolean; admin: boolean; acls: Map<number, number> }>();

  beforeAll(async () => {
    t = await startTestServer();
    fx = await loadFixtures(t);
    for (const user of MATRIX_USERS) {
      const { client, auth } = await t.signIn(user);
      sessions.set(user, client);
      const acls = new Map((auth.fleets as { id: number; acl: number }[]).map((f) => [f.id, f.acl]));
      who.set(user, {
        su: auth.su === 1 || auth.su === true,
        admin: auth.admin === 1 || auth.admin === true,
        acls,
      });
    }
  });
  afterAll(() => t.close());

  const declarationOf = (c: RouteCase): RouteDeclaration => {
    const [method, url] = c.route.split(' ') as [string, string];
    const found = t.server.app.routeDeclarations.find((d) => d.method === method && d.url === url);
    if (!found) throw new Error(`no declaration for ${c.route}`);
    return found;
  };

  /** What the server must decide for a demo user on a fleet, from the need alone. */
  function predicted(user: MatrixUser, need: NeedName, fleetId: number): boolean {
    const u = who.get(user)!;
    const rule = NEEDS[need];
    if (rule.scope === 'user') return true;
    if (rule.scope === 'su') return u.su;
    if (rule.scope === 'account') return u.su || u.admin;
    return isFleetNeed(need) && aclSatisfies(u.acls.get(fleetId) ?? 0, need as FleetNeedName);
  }

  /** Whether the check before the body (http/needs.ts) lets the user through on the case's route. */
  function passesDeclared(user: MatrixUser, c: RouteCase): boolean {
    const d = declarationOf(c);
    if (d.fleetFrom && 'body' in d.fleetFrom)
      return [...who.get(user)!.acls.keys()].some((fid) => predicted(user, d.need!, fid));
    return predicted(user, d.need!, c.otherFleet ? fx.otherFleetId : fx.fleetId);
  }

  it('every authenticated /api route declares a known need', () => {
    const declared = t.server.app.routeDeclarations.filter((d) => !d.public);
    expect(declared.length).toBeGreaterThan(60);
    for (const d of declared)
      expect(d.need && Object.hasOwn(NEEDS, d.need), `${d.method} ${d.url}`).toBe(true);
  });

  it("the matrix's allowed and denied outcomes follow from the declared needs", () => {
    const mismatches: string[] = [];
    for (const c of ROUTE_CASES) {
      if (c.narrower) continue;
      const need = c.need ?? declarationOf(c).need!;
      for (const user of MATRIX_USERS) {
        const outcome = c.expect[user];
        // A 4xx other than 403 means the call got past the permission check (404s may hide records).
        const allowed =
          outcome === 'ok' ? true : outcome === 'denied' ? false : outcome.status === 404 ? undefined : true;
        if (allowed === undefined) continue;
        if (predicted(user, need, c.otherFleet ? fx.otherFleetId : fx.fleetId) !== allowed)
          mismatches.push(
            `${c.route}${c.label ? ` (${c.label})` : ''}: ${user} expects ${JSON.stringify(outcome)}, need ${need}`,
          );
      }
    }
    expect(mismatches).toEqual([]);
  });

  const withBody = ROUTE_CASES.filter((c) => !c.route.startsWith('GET '));
  const malformed: { label: string; body: unknown }[] = [
    { label: 'broken JSON', body: '{"n": ' },
    { label: 'wrong types', body: { n: 42, s: 'x', id: 'not a number', units: 'all', rights: 7 } },
    { label: 'an array', body: [1, 2, 3] },
  ];

  for (const c of withBody) {
    const denied = MATRIX_USERS.filter((u) => c.expect[u] === 'denied');
    if (denied.length === 0) continue;
    it(`${c.route}${c.label ? ` (${c.label})` : ''}: those its declared need refuses get 403 whatever the body`, async () => {
      // Users the route's need admits but the body's content refuses (a rename) rightly meet validation.
      const refused = denied.filter((u) => !passesDeclared(u, c));
      for (const user of refused) {
        const client = sessions.get(user)!;
        const env: CaseEnv = { t, fx, user, client };
        const req = await c.build(env);
        for (const { label, body } of malformed) {
          const reply = await client.request(req.method, req.url, body);
          expect(reply.status, `${user}, ${label}: ${JSON.stringify(reply.body)}`).toBe(403);
          expect(reply.body).toEqual({ error: 7, reason: 'Access denied' });
        }
      }
    });
  }
});
