import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * Every route's request and reply are declared with the core contracts: a route
 * without a reply schema fails here, and the OpenAPI document served at /api/openapi.json carries a
 * reply schema for every operation.
 */

/** The document that describes the others. */
const SELF_DESCRIBING = new Set(['GET /api/openapi.json']);

describe('reply contracts', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ demo: false });
  });
  afterAll(() => t.close());

  it('every /api route declares the reply of its success', () => {
    const missing = t.server.app.routeDeclarations
      .filter((d) => !SELF_DESCRIBING.has(`${d.method} ${d.url}`))
      .filter((d) => !d.replies.some((status) => /^2/.test(status)))
      .map((d) => `${d.method} ${d.url}`);
    expect(missing).toEqual([]);
  });

  it('the OpenAPI document describes every operation with its reply', async () => {
    const doc = (await t.anon.get('/api/openapi.json')).body;
    const operations: string[] = [];
    const undescribed: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        operations.push(`${method} ${path}`);
        const success = Object.entries<any>(op.responses ?? {}).filter(([status]) => /^2/.test(status));
        const described = success.some(
          ([status, r]) => status === '204' || r.content?.['application/json']?.schema !== undefined,
        );
        if (!described) undescribed.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(operations.length).toBeGreaterThan(70);
    expect(undescribed).toEqual([]);
  });
});
