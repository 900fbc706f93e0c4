import { type RouteDef, routes } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * Routes are registered from their core descriptors (http/serve.ts, core routes/): every descriptor is
 * registered as it says, and every /api route is registered from one, except those of the modules not
 * moved yet (below). A module's entries go when its routes.ts serves its descriptors; the list ends empty.
 */
const NOT_YET_DESCRIBED: Record<string, string[]> = {
  app: ['GET /api/openapi.json', 'GET /api/ping'],
  session: [
    'POST /api/login',
    'GET /api/auth',
    'GET /api/logout',
    'POST /api/remoteapi/core/set_session_property',
  ],
  setup: ['GET /api/setup', 'POST /api/setup'],
  user: [
    'GET /api/user/tokens',
    'POST /api/user/tokens',
    'DELETE /api/user/tokens/:id',
    'PUT /api/user/fleet',
    'PATCH /api/user/settings',
    'PUT /api/user/password',
    'GET /api/user/units',
  ],
  admin: [
    'GET /api/admin/accounts',
    'PUT /api/admin/accounts/:id',
    'POST /api/admin/accounts',
    'GET /api/admin/accounts/:id/users',
    'POST /api/admin/accounts/:id/users',
    'PUT /api/admin/users/:id',
    'PUT /api/admin/users/:id/password',
    'DELETE /api/admin/users/:id',
  ],
  lineitems: [
    'GET /api/fleets/:fid/line_items',
    'GET /api/fleets/:fid/line_items/fuel_presets',
    'POST /api/fleets/:fid/line_items',
    'PUT /api/fleets/:fid/line_items/:id',
    'DELETE /api/fleets/:fid/line_items/:id',
    'POST /api/line_items/batch',
  ],
  imports: [
    'POST /api/fleets/:fid/import/intervals/parse',
    'POST /api/fleets/:fid/import/intervals',
    'POST /api/fleets/:fid/import/services/parse',
    'POST /api/fleets/:fid/import/services',
    'GET /api/fleets/:id/import',
    'POST /api/fleets/:id/import',
    'POST /api/fleets/:fid/import/fuelfillings/parse',
    'POST /api/fleets/:fid/import/fuelfillings',
    'POST /api/fleets/:fid/import/lineitems/parse',
    'POST /api/fleets/:fid/import/lineitems',
  ],
  statistics: ['GET /api/fleets/:fid/statistics', 'GET /api/fleets/:fid/units/:uid/statistics'],
  reports: ['GET /api/fleets/:fid/reports/:type', 'GET /api/fleets/:fid/reports/:type/export'],
  reportmails: [
    'GET /api/fleets/:fid/reportmails',
    'POST /api/fleets/:fid/reportmails',
    'GET /api/fleets/:fid/reportmails/:id',
    'PUT /api/fleets/:fid/reportmails/:id',
    'DELETE /api/fleets/:fid/reportmails/:id',
    'POST /api/fleets/:fid/reportmails/:id/send',
  ],
  customfields: [
    'GET /api/fleets/:fid/custom-fields',
    'POST /api/fleets/:fid/custom-fields',
    'GET /api/custom-fields/:id',
    'PUT /api/custom-fields/:id',
    'DELETE /api/custom-fields/:id',
  ],
  notifications: [
    'GET /api/fleets/:fid/notifications',
    'POST /api/fleets/:fid/notifications',
    'POST /api/fleets/:fid/notifications/test',
    'GET /api/fleets/:fid/notifications/:id',
    'PUT /api/fleets/:fid/notifications/:id',
    'DELETE /api/fleets/:fid/notifications/:id',
    'GET /api/fleets/:fid/user/alerts',
    'POST /api/fleets/:fid/user/alerts',
    'POST /api/fleets/:fid/user/alerts/delete',
  ],
  'notification-channels': [
    'GET /api/fleets/:fid/mails',
    'POST /api/fleets/:fid/mails',
    'POST /api/fleets/:fid/mails/test',
    'PUT /api/fleets/:fid/mails/:id',
    'DELETE /api/fleets/:fid/mails/:id',
    'GET /api/fleets/:fid/bots',
    'POST /api/fleets/:fid/bots',
    'POST /api/fleets/:fid/bots/test',
    'PUT /api/fleets/:fid/bots/:id',
    'DELETE /api/fleets/:fid/bots/:id',
    'GET /api/fleets/:fid/webhooks',
    'POST /api/fleets/:fid/webhooks',
    'POST /api/fleets/:fid/webhooks/test',
    'PUT /api/fleets/:fid/webhooks/:id',
    'DELETE /api/fleets/:fid/webhooks/:id',
    'GET /api/fleets/:fid/deliveries',
    'POST /api/fleets/:fid/deliveries/:id/retry',
  ],
  telematics: ['GET /api/ingest/osmand', 'POST /api/ingest/osmand', 'POST /api/ingest/batch'],
  platform: [
    'POST /api/remoteapi/user/get_keys',
    'GET /api/admin/map_keys',
    'POST /api/admin/map_keys',
    'DELETE /api/admin/map_keys/:id',
    'GET /api/gis/tiles/:z/:x/:y',
  ],
  'client-errors': ['POST /api/client_errors', 'GET /api/admin/client_errors'],
  'fleet-transfer': [
    'GET /api/fleets/:fid/export',
    'GET /api/fleets/:fid/export/:file',
    'POST /api/fleets/:fid/transfer',
    'POST /api/fleets/:fid/transfer/lubelogger/parse',
    'POST /api/fleets/:fid/transfer/lubelogger',
  ],
};

const key = (method: string, url: string) => `${method} ${url}`;

const descriptors = Object.entries(routes).flatMap(([module, defs]) =>
  Object.entries(defs as Record<string, RouteDef>).map(([name, def]) => ({ at: `${module}.${name}`, def })),
);

describe('route descriptors on the server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ demo: false });
  });
  afterAll(() => t.close());

  it('every descriptor is registered, with its need', () => {
    const declarations = t.server.app.routeDeclarations;
    const wrong = descriptors
      .filter(({ def }) => {
        const found = declarations.find((d) => d.descriptor === def);
        if (!found || key(found.method, found.url) !== key(def.method, def.path)) return true;
        return def.need === 'public' ? !found.public : found.need !== def.need;
      })
      .map(({ at }) => at);
    expect(wrong).toEqual([]);
  });

  it('every /api route is registered from a descriptor', () => {
    const pending = new Set(Object.values(NOT_YET_DESCRIBED).flat());
    const undescribed = t.server.app.routeDeclarations
      .filter((d) => !d.descriptor)
      .map((d) => key(d.method, d.url))
      .filter((k) => !pending.has(k));
    expect(undescribed).toEqual([]);
    const registered = new Set(t.server.app.routeDeclarations.map((d) => key(d.method, d.url)));
    expect([...pending].filter((k) => !registered.has(k))).toEqual([]);
  });

  it('the API description comes from the descriptors', async () => {
    const doc = (await t.anon.get('/api/openapi.json')).body;
    const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
    const wrong = descriptors
      .filter(({ def }) => !def.hidden)
      .filter(({ def }) => {
        const op = doc.paths[openApiPath(def.path)]?.[def.method.toLowerCase()];
        return op?.summary !== def.summary || op?.tags?.join() !== def.tags.join();
      })
      .map(({ at }) => at);
    expect(wrong).toEqual([]);
  });
});
