import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';
import {
  type CaseEnv,
  isUncatalogued,
  loadFixtures,
  MATRIX_USERS,
  type MatrixFixtures,
  type MatrixUser,
  normalizePath,
  type Outcome,
  ROUTE_CASES,
  type RouteCase,
  registeredRoutes,
} from '../test/routes.js';

/**
 * The permission matrix of spec §6: every catalogued route, called by every demo user, gets exactly the
 * expected outcome; and without a session every one of them answers 401 error 1.
 */
describe('permission matrix', () => {
  let t: TestServer;
  let fx: MatrixFixtures;
  const sessions = new Map<MatrixUser, Client>();

  beforeAll(async () => {
    t = await startTestServer();
    fx = await loadFixtures(t);
    for (const user of MATRIX_USERS) sessions.set(user, await t.login(user));
  });
  afterAll(() => t.close());

  const caseName = (c: RouteCase) => (c.label ? `${c.route} (${c.label})` : c.route);
  const describeOutcome = (o: Outcome) => (typeof o === 'string' ? o : `${o.status} error ${o.error}`);

  function expectOutcome(reply: { status: number; body: any }, outcome: Outcome) {
    if (outcome === 'ok') {
      expect(reply.status, JSON.stringify(reply.body)).toBeGreaterThanOrEqual(200);
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    } else if (outcome === 'denied') {
      expect(reply.status, JSON.stringify(reply.body)).toBe(403);
      expect(reply.body).toEqual({ error: 7, reason: 'Access denied' });
    } else {
      expect(reply.status, JSON.stringify(reply.body)).toBe(outcome.status);
      expect(reply.body.error).toBe(outcome.error);
    }
  }

  for (const routeCase of ROUTE_CASES) {
    describe(caseName(routeCase), () => {
      for (const user of MATRIX_USERS) {
        const outcome = routeCase.expect[user];
        it(`${user} → ${describeOutcome(outcome)}`, async () => {
          const client = routeCase.endsSession ? await t.login(user) : sessions.get(user)!;
          const env: CaseEnv = { t, fx, user, client };
          const req = await routeCase.build(env);
          const reply = await client.request(req.method, req.url, req.body);
          try {
            expectOutcome(reply, outcome);
          } finally {
            if (reply.status < 300) await routeCase.restore?.(env);
          }
        });
      }

      it('no session → 401 error 1', async () => {
        const req = await routeCase.build({ t, fx, user: 'root', client: sessions.get('root')! });
        const reply = await t.anon.request(req.method, req.url, req.body);
        expect(reply.status).toBe(401);
        expect(reply.body).toEqual({ error: 1, reason: 'Session is not initialized' });
      });
    });
  }

  it('a bad credential is no session either (SSID, Bearer, unknown scheme)', async () => {
    for (const authorization of ['SSID nope', 'Bearer nope', 'Basic cm9vdDpyb290', 'SSID', 'garbage']) {
      const reply = await t.anon.request('GET', '/api/fleets', undefined, { authorization });
      expect(reply.status, authorization).toBe(401);
      expect(reply.body.error, authorization).toBe(1);
    }
  });

  it('the catalogue has a case for every registered /api route but the listed public ones', () => {
    const registered = registeredRoutes(t.server.app).filter((r) => {
      const [method, path] = r.split(' ') as [string, string];
      return path.startsWith('/api/') && !isUncatalogued(method, path);
    });
    const catalogued = new Set(
      ROUTE_CASES.map((c) => {
        const [method, path] = c.route.split(' ') as [string, string];
        return `${method} ${normalizePath(path)}`;
      }),
    );
    expect(registered.filter((r) => !catalogued.has(r))).toEqual([]);
    expect([...catalogued].filter((r) => !registered.includes(r))).toEqual([]);
    // Sanity: the parser did read the tree.
    expect(registered.length).toBeGreaterThan(20);
  });

  it('every catalogued route exists with exactly its registered parameter names', () => {
    for (const c of ROUTE_CASES) {
      const [method, url] = c.route.split(' ') as [string, string];
      expect(t.server.app.hasRoute({ method: method as any, url }), c.route).toBe(true);
    }
  });

  it('every route the catalogue leaves out answers without a session', async () => {
    const publicCalls: [string, string][] = [
      ['POST', '/api/login'],
      ['GET', '/api/auth'],
      ['GET', '/api/ping'],
      ['GET', '/api/openapi.json'],
      ['GET', '/api/docs'],
    ];
    for (const [method, url] of publicCalls) {
      const reply = await t.anon.request(method, url, method === 'POST' ? {} : undefined);
      expect(reply.status, `${method} ${url}`).not.toBe(401);
      expect(reply.status, `${method} ${url}`).toBeLessThan(500);
    }
  });
});
