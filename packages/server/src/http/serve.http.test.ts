import { type RouteDef, routes } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * Routes are registered from their core descriptors (http/serve.ts, core routes/): every descriptor is
 * registered as it says, and every /api route is registered from one.
 */

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
    const undescribed = t.server.app.routeDeclarations
      .filter((d) => !d.descriptor)
      .map((d) => key(d.method, d.url));
    expect(undescribed).toEqual([]);
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

  it('documents the body types, the success status and sessionless access of a descriptor', async () => {
    const doc = (await t.anon.get('/api/openapi.json')).body;
    const op = (def: RouteDef) => doc.paths[def.path.replace(/:(\w+)/g, '{$1}')]?.[def.method.toLowerCase()];
    const parse = op(routes.imports.parseFuelfillings);
    expect(Object.keys(parse.requestBody.content)).toEqual(['application/octet-stream']);
    expect(Object.keys(op(routes.clientErrors.report).responses)).toContain('204');
    expect(Object.keys(op(routes.clientErrors.report).responses)).not.toContain('200');
    expect(op(routes.telematics.osmandPost).security).toEqual([]);
    expect(op(routes.session.login).security).toBeUndefined();
  });
});
