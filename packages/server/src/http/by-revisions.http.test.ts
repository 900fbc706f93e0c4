import { fleetItemParams, serviceWire } from '@fleetkeep/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireFleet } from '../auth/access.js';
import type { AppContext } from '../context.js';
import { loadOneWire } from '../modules/services/load.js';
import { createServer, type Server } from '../server.js';
import { Client, startTestServer, TEST_DB, type TestServer } from '../test/harness.js';
import { servicesFixture } from '../test/services-fixtures.js';
import { actorOf } from './auth-hook.js';
import { notFound } from './errors.js';
import { ReplyCache, sendByRevisions } from './etag.js';
import { zApp } from './types.js';

/**
 * `sendByRevisions` (http/etag.ts) keeps one record's reply per collection revisions, for a route that
 * reads them with its access revision (`config.taggedBy`). The route here serves one service the way
 * GET .../services/{id} does. Every change is written through instance B (API) or straight into the
 * database, and read back at once through instance A, whose memory held the old body a moment before.
 */
const CACHED = '/api/test/fleets/:fid/services/:id';

/** Registers the route; `ctxOf` gives the server's context once it exists (the route runs after that). */
function cachedServiceRoute(ctxOf: () => AppContext) {
  return (fastify: FastifyInstance) => {
    const kept = new ReplyCache();
    zApp(fastify).get(
      CACHED,
      {
        config: { need: 'service.view', taggedBy: ['services', 'owners'] },
        schema: { params: fleetItemParams, response: { 200: serviceWire } },
      },
      async (req, reply) => {
        const { fid, id } = req.params;
        const ctx = ctxOf();
        await requireFleet(ctx, actorOf(req), fid, 'service.view');
        return sendByRevisions(ctx, kept, req, reply, fid, {
          collections: ['services', 'owners'],
          variant: String(id),
          schema: serviceWire,
          build: async () => {
            const wire = await loadOneWire(ctx.db.kysely, fid, id);
            if (!wire) throw notFound('Service not found');
            return wire;
          },
        });
      },
    );
  };
}

describe(`one record kept by collection revisions on ${TEST_DB}`, () => {
  let t: TestServer;
  let b: Server;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let onA: Client;
  let onB: Client;

  beforeAll(async () => {
    let ctxA: AppContext | undefined;
    t = await startTestServer({ beforeListen: cachedServiceRoute(() => ctxA as AppContext) });
    ctxA = t.server.ctx;
    b = await createServer({ ...t.config }, { logger: false });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const address = b.app.server.address();
    const urlB = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    fx = await servicesFixture(t);
    onA = await t.login('manager');
    onB = new Client(urlB, onA.ssid);
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const cached = (id: number) => `/api/test/fleets/${fx.fleetId}/services/${id}`;
  const plain = (id: number) => `${fx.base}/${id}`;

  /** The status, bytes and headers of a read through instance A. */
  async function raw(path: string) {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `SSID ${onA.ssid}` } });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text), headers: res.headers };
  }

  /** Reads through the kept route twice (the second from memory) and checks it against the plain route. */
  async function readBack(id: number) {
    const first = await raw(cached(id));
    const again = await raw(cached(id));
    const real = await raw(plain(id));
    expect(first.status).toBe(real.status);
    expect(again.text).toBe(first.text);
    expect(first.text).toBe(real.text);
    expect(first.headers.get('content-type')).toBe(real.headers.get('content-type'));
    expect(first.headers.get('cache-control')).toBe(real.headers.get('cache-control'));
    expect(first.headers.get('etag')).toBeNull();
    return first;
  }

  it('sends the bytes of the plain read, and every change made elsewhere at once', async () => {
    const uid = await fx.unit(100, 10);
    const created = await onB.post(fx.base, {
      n: 'Kept',
      t: 'u',
      uid,
      f: 1,
      li: [{ n: 'A', t: 2, q: 1, c: 1 }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id as number;
    expect((await readBack(id)).body).toMatchObject({ n: 'Kept', current_mileage: 100, ats: 0 });

    // Renamed and given other line items through instance B.
    const changed = await onB.put(plain(id), { n: 'Renamed', li: [{ n: 'B', t: 1, q: 2, c: 5 }] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await readBack(id)).body).toMatchObject({ n: 'Renamed', total_cost: 10, li: [{ n: 'B' }] });

    // The owner's counters and an attachment, straight in the database.
    await fx.db.updateTable('units').set({ mileage: 250.5 }).where('id', '=', uid).execute();
    expect((await readBack(id)).body).toMatchObject({ current_mileage: 250.5 });
    await fx.attach(id);
    expect((await readBack(id)).body).toMatchObject({ ats: 1 });

    // Closed in the database, then removed through instance B: 404 at once, and nothing kept of it.
    await fx.db.updateTable('services').set({ f: 8, end_date: fx.today() }).where('id', '=', id).execute();
    expect((await readBack(id)).body).toMatchObject({ f: 8 });
    expect((await onB.request('DELETE', `${fx.base}/archived/${id}`)).status).toBe(200);
    expect((await readBack(id)).status).toBe(404);
  });

  it('keeps records apart and refuses a caller without the right before anything is read', async () => {
    const uid = await fx.unit();
    const one = (await onB.post(fx.base, { n: 'One', t: 'u', uid, f: 1 })).body.id as number;
    const two = (await onB.post(fx.base, { n: 'Two', t: 'u', uid, f: 1 })).body.id as number;
    expect((await readBack(one)).body).toMatchObject({ id: one, n: 'One' });
    expect((await readBack(two)).body).toMatchObject({ id: two, n: 'Two' });
    const outsider = await t.login('outsider');
    expect((await outsider.get(cached(one))).status).toBe(403);
    expect((await onA.get(`/api/test/fleets/${fx.fleetId}/services/999999999`)).status).toBe(404);
  });
});
