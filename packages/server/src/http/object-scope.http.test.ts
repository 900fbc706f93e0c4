import { ACL_ALL } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type Client, createUser, startTestServer, type TestServer } from '../test/harness.js';
import { OBJECT_NOT_FOUND, objectScopeOf } from './object-scope.js';

/**
 * Routes of one service object (`…/units/{id}/…`, `…/drivers/{id}/…`, `…/trailers/{id}/…`) answer
 * 404 `{error: 5}` for an object that is not in the fleet they name: another fleet's, even one the
 * caller may see, or one that does not exist (DESIGN §5 "A user never reads or changes another fleet's
 * data, whatever ids it sends"). The routes are read from the app, so that a new one is swept too.
 */
describe('object routes answer 404 for an object outside their fleet', () => {
  let t: TestServer;
  let both: Client;
  const foreign = { units: 0, drivers: 0, trailers: 0 };
  const own = { units: 0, drivers: 0, trailers: 0 };
  const UNKNOWN = 2_000_000_000;

  beforeAll(async () => {
    t = await startTestServer();
    // Every right in both demo fleets: what the caller may see elsewhere is still not in this fleet.
    await createUser(t, {
      name: 'both-fleets',
      accountId: await accountOf(t, 'admin'),
      memberships: [
        { fleetId: t.demo.fleetId, acl: ACL_ALL },
        { fleetId: t.demo.otherFleetId, acl: ACL_ALL },
      ],
    });
    both = await t.login('both-fleets');
    const db = t.server.ctx.db.kysely;
    for (const table of ['units', 'drivers', 'trailers'] as const) {
      const first = (fleetId: number) =>
        db
          .selectFrom(table)
          .select('id')
          .where('fleet_id', '=', fleetId)
          .orderBy('id')
          .executeTakeFirstOrThrow();
      foreign[table] = (await first(t.demo.otherFleetId)).id;
      own[table] = (await first(t.demo.fleetId)).id;
    }
  });
  afterAll(() => t?.close());

  /** The object routes of the app, each with the object it names and the URL for an object id. */
  const objectRoutes = () =>
    t.server.app.routeDeclarations.flatMap((d) => {
      const scope = objectScopeOf(d.url);
      if (!scope) return [];
      const url = (objectId: number) =>
        d.url.replace(/:(\w+)/g, (_, name: string) => {
          if (name === scope.param) return String(objectId);
          // The fleet of the path; any other id (a reading, a filling) names nothing in particular.
          if (name === 'fid' || (name === 'id' && d.url.startsWith('/api/fleets/:id/')))
            return String(t.demo.fleetId);
          return '1';
        });
      return [{ method: d.method, route: d.url, table: scope.table, url }];
    });

  it('finds the object routes of every module, with and without a fleet in the path', () => {
    const routes = objectRoutes().map((r) => `${r.method} ${r.route}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/fleets/:fid/units/:id/fuel-fillings',
        'GET /api/fleets/:fid/units/:uid/statistics',
        'GET /api/fleets/:fid/units/:id/meter',
        'PUT /api/fleets/:fid/units/:id',
        'DELETE /api/fleets/:fid/units/:id',
        'PUT /api/drivers/:id',
        'PUT /api/trailers/:id',
      ]),
    );
  });

  it('another fleet’s object and an unknown id: 404 error 5, before the body is read', async () => {
    const wrong: string[] = [];
    for (const route of objectRoutes()) {
      const inPath = route.route.startsWith('/api/fleets/');
      // Without a fleet in the path the record names its own fleet: only an unknown id is outside.
      const ids = inPath ? [foreign[route.table], UNKNOWN] : [UNKNOWN];
      for (const id of ids) {
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : { malformed: [] };
        const res = await both.request(route.method, route.url(id), body);
        if (res.status !== 404 || res.body?.error !== 5 || res.body?.reason !== OBJECT_NOT_FOUND[route.table])
          wrong.push(`${route.method} ${route.url(id)} → ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(wrong).toEqual([]);
    // Nothing of the other fleet moved: its objects are all still there, in their fleet.
    for (const table of ['units', 'drivers', 'trailers'] as const) {
      const row = await t.server.ctx.db.kysely
        .selectFrom(table)
        .select('fleet_id')
        .where('id', '=', foreign[table])
        .executeTakeFirst();
      expect(row?.fleet_id, table).toBe(t.demo.otherFleetId);
    }
  });

  it('the fleet’s own object passes the check', async () => {
    const reads = objectRoutes().filter((r) => r.method === 'GET');
    expect(reads.length).toBeGreaterThan(3);
    for (const route of reads) {
      const res = await both.get(route.url(own[route.table]));
      // The route's own answer (a list, or 400 for a query it needs), never the object's 404.
      expect(res.status, `${route.route} ${JSON.stringify(res.body)}`).toBeLessThan(500);
      expect(res.status === 404 && res.body.reason === OBJECT_NOT_FOUND[route.table], route.route).toBe(
        false,
      );
    }
  });
});
