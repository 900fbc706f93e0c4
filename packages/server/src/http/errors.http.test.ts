import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, checkErrorReply, startTestServer, type TestServer } from '../test/harness.js';
import { openApiPath, ROUTE_CASES } from '../test/routes.js';

/** The error contract of DESIGN §5: `{error, reason, details?}` with the right status, never a stack. */
describe('error contract', () => {
  let t: TestServer;
  let admin: Client;
  const SECRET = 'secret internal detail';

  beforeAll(async () => {
    t = await startTestServer({
      config: { bodyLimit: 1024 },
      beforeListen(app) {
        // A route that fails the way a bug would, to see what the client gets.
        app.get('/api/test/boom', { config: { public: true } }, async () => {
          throw new Error(`${SECRET} in /srv/fleetkeep/src/modules/x.ts:12`);
        });
        app.get('/api/test/boom-db', { config: { public: true } }, async () => {
          await t.server.ctx.db.kysely
            .selectFrom('no_such_table' as any)
            .selectAll()
            .execute();
          return {};
        });
      },
    });
    admin = await t.login('admin');
  });
  afterAll(() => t.close());

  /** The one error shape; no stack trace, file path or internal message leaks. */
  function expectErrorBody(body: any, code: number) {
    expect(body.error).toBe(code);
    expect(typeof body.reason).toBe('string');
    expect(Object.keys(body).every((k) => ['error', 'reason', 'details'].includes(k))).toBe(true);
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/\bat .+\(.*:\d+:\d+\)|\.ts:\d+|\.js:\d+|node_modules|"stack"/);
    expect(text).not.toContain(SECRET);
  }

  it('an unknown route is 404 error 5, with or without a session', async () => {
    for (const client of [t.anon, admin]) {
      const res = await client.get('/api/no/such/route');
      expect(res.status).toBe(404);
      expectErrorBody(res.body, 5);
    }
    const wrongMethod = await admin.request('DELETE', '/api/fleets');
    expect(wrongMethod.status).toBe(404);
    expectErrorBody(wrongMethod.body, 5);
  });

  it('a malformed URL is 400 error 4 in the same shape', async () => {
    const res = await admin.get('/api/fleets/%zz');
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 4);
  });

  it('malformed JSON is 400 error 4 "Invalid json"', async () => {
    const res = await admin.request('PATCH', '/api/user/settings', '{"lang": "en",');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 4, reason: 'Invalid json' });
  });

  it('an empty JSON body where one is required is 400 error 4', async () => {
    const res = await admin.request('PATCH', '/api/user/settings', '', {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 4);
  });

  it('a body over the limit is 413 error 2', async () => {
    const res = await admin.patch('/api/user/settings', { note: 'x'.repeat(2000) });
    expect(res.status).toBe(413);
    expectErrorBody(res.body, 2);
  });

  it('a validation failure lists every bad field in details', async () => {
    const res = await admin.put(`/api/fleets/${t.demo.fleetId}`, { n: '', tz: 'x', ms: 5, fm: 9 });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 4);
    const fields = res.body.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['body.fm', 'body.ms', 'body.n', 'body.tz']);
    for (const d of res.body.details) expect(typeof d.message).toBe('string');
  });

  it('path parameters are validated too', async () => {
    const res = await admin.get('/api/fleets/abc/units');
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 4);
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['params.id']);
  });

  it('an internal error is 500 error 6 with the request id, never the message or a stack', async () => {
    const res = await t.anon.get('/api/test/boom');
    expect(res.status).toBe(500);
    expectErrorBody(res.body, 6);
    expect(res.body.reason).toBe('Unexpected fault');
    expect(typeof res.body.details.request_id).toBe('string');
    expect(res.body.details.request_id.length).toBeGreaterThan(0);

    const db = await t.anon.request('GET', '/api/test/boom-db', undefined, { 'x-request-id': 'req-42' });
    expect(db.status).toBe(500);
    expectErrorBody(db.body, 6);
    expect(db.body.details).toEqual({ request_id: 'req-42' });
    expect(JSON.stringify(db.body)).not.toContain('no_such_table');
  });

  it('no error reply of a range of bad calls carries a stack trace', async () => {
    const calls: [Client, string, string, unknown?, Record<string, string>?][] = [
      [t.anon, 'GET', '/api/fleets'],
      [admin, 'GET', '/api/fleets/0/units'],
      [admin, 'GET', `/api/fleets/${t.demo.otherFleetId}/units`],
      [admin, 'PUT', `/api/fleets/${t.demo.fleetId}/units/2147483647`, { ut: null }],
      [admin, 'POST', '/api/user/tokens', 'not json', { 'content-type': 'application/json' }],
      [admin, 'POST', '/api/user/tokens', { description: 'x'.repeat(200), rights: [] }],
      [admin, 'PUT', '/api/user/fleet', { fid: 999999 }],
      [t.anon, 'POST', '/api/login', { username: 'nobody', password: 'x' }],
      [t.anon, 'GET', '/api/auth?access_token=bogus'],
    ];
    for (const [client, method, url, body, headers] of calls) {
      const res = await client.request(method, url, body, headers);
      expect(res.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      expectErrorBody(res.body, res.body.error);
    }
  });

  it('a call without a session is refused before its body is read, however the path is spelt', async () => {
    const plain = await t.anon.request('POST', '/api/user/tokens', '{broken');
    expect(plain.status).toBe(401);
    expect(plain.body.error).toBe(1);
    // Percent-encoded letters route to the same handler; the session check must still come first.
    const encoded = await t.anon.request('POST', '/%61pi/user/tokens', '{broken');
    expect(encoded.status).toBe(401);
    expect(encoded.body).toEqual({ error: 1, reason: 'Session is not initialized' });
  });

  it('the test client fails a test on an error reply outside the core contract', () => {
    const route = 'PUT /api/x';
    expect(() =>
      checkErrorReply(route, 409, { error: 10, reason: 'Conflict', details: { values: 2 } }),
    ).toThrow(/breaks the core contract/);
    const issue = { field: 'body.n', message: 'Taken' };
    expect(() => checkErrorReply(route, 409, { error: 10, reason: 'Conflict', details: [issue] })).toThrow();
    const refusal = { field: 'body.n', reason: 'Taken' };
    expect(() =>
      checkErrorReply(route, 409, { error: 10, reason: 'Conflict', details: [refusal] }),
    ).not.toThrow();
    expect(() => checkErrorReply(route, 200, { services: [] })).not.toThrow();
  });

  describe('API description', () => {
    let doc: any;
    beforeAll(async () => {
      const res = await t.anon.get('/api/openapi.json');
      expect(res.status).toBe(200);
      doc = res.body;
    });

    it('is OpenAPI 3.1', () => {
      expect(doc.openapi).toMatch(/^3\.1\./);
      expect(doc.info.title).toBe('Fleetkeep API');
    });

    it('lists every catalogued route with its path parameters and body schema', () => {
      for (const c of ROUTE_CASES) {
        const [method, path] = c.route.split(' ') as [string, string];
        const op = doc.paths[openApiPath(path)]?.[method.toLowerCase()];
        expect(op, c.route).toBeDefined();
        expect(typeof op.summary, c.route).toBe('string');
        const pathParams = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
        const documented = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        expect(documented.sort(), c.route).toEqual(pathParams.sort());
        if (['PUT', 'POST', 'PATCH'].includes(method) && c.route !== 'GET /api/logout') {
          // JSON bodies, or a file's raw bytes (the import parse routes).
          const content = op.requestBody?.content ?? {};
          const schema = (content['application/json'] ?? content['application/octet-stream'])?.schema;
          expect(schema, `${c.route} request body`).toBeDefined();
        }
      }
    });

    it('carries the field rules of the schemas', () => {
      const fleetBody = doc.paths['/api/fleets/{id}'].put.requestBody.content['application/json'].schema;
      // The fleet as read is accepted too: its read-only fields are documented as such.
      const readOnly = (key: string) => fleetBody.properties[key].readOnly === true;
      expect(
        Object.keys(fleetBody.properties)
          .filter((k) => !readOnly(k))
          .sort(),
      ).toEqual(['cur', 'fm', 'mdd', 'ms', 'n', 'tz']);
      expect(Object.keys(fleetBody.properties).filter(readOnly).sort()).toEqual(['acl', 'aid', 'id', 's']);
      expect(fleetBody.properties.n.maxLength).toBe(128);
      const settings = doc.paths['/api/user/settings'].patch.requestBody.content['application/json'].schema;
      expect(settings.properties.lang.enum).toContain('pt-br');
      const users = doc.paths['/api/fleets/{id}/users'].put.requestBody.content['application/json'].schema;
      expect(users.required).toEqual(['users']);
    });

    it('documents the error reply of every route with the core details contract', () => {
      for (const c of ROUTE_CASES) {
        const [method, path] = c.route.split(' ') as [string, string];
        const reply = doc.paths[openApiPath(path)]?.[method.toLowerCase()]?.responses?.default;
        const schema = reply?.content?.['application/json']?.schema;
        expect(Object.keys(schema?.properties ?? {}).sort(), c.route).toEqual(['details', 'error', 'reason']);
        expect(schema.properties.details.anyOf, c.route).toHaveLength(4);
      }
    });

    it('documents the /api routes only, not the document itself', () => {
      expect(doc.paths['/api/openapi.json']).toBeUndefined();
      expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/'))).toBe(true);
    });

    it('is browsable at /api/docs without a session', async () => {
      const res = await t.anon.get('/api/docs');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(String(res.body)).toMatch(/swagger/i);
    });
  });
});
