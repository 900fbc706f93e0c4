import { JSON_DEPTH_MAX } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOsmandServer } from '../telematics/osmand-server.js';
import { accountOf, type Client, createUnit, startTestServer, type TestServer } from '../test/harness.js';
import { servicesFixture } from '../test/services-fixtures.js';
import { MALFORMED_MULTIPART_REASON } from './errors.js';
import { TOO_DEEP } from './json-depth.js';
import { NO_FIELD_TO_CHANGE } from './no-change.js';
import { NOT_UTF8 } from './utf8.js';

/**
 * Hardening: JSON nested too deep and updates naming no field answer 400 error 4 on
 * every route, never 500; a malformed multipart body is 400.
 */
describe('hardening: request bodies', () => {
  let t: TestServer;
  let manager: Client;
  let admin: Client;
  let fleet: string;
  let ids: { unit: number; driver: number; trailer: number; service: number; interval: number; item: number };

  beforeAll(async () => {
    t = await startTestServer();
    [manager, admin] = await Promise.all([t.login('manager'), t.login('admin')]);
    fleet = `/api/fleets/${t.demo.fleetId}`;
    const fx = await servicesFixture(t);
    const unit = await createUnit(t, {
      accountId: await accountOf(t, 'admin'),
      fleetId: t.demo.fleetId,
      name: 'Hardening van',
    });
    const driver = (await manager.get(`${fleet}/drivers`)).body.drivers[0].id;
    const trailer = (await manager.get(`${fleet}/trailers`)).body.trailers[0].id;
    const service = await manager.post(fx.base, { n: 'Hardening', t: 'u', uid: unit, f: 1 });
    expect(service.status, JSON.stringify(service.body)).toBe(200);
    const interval = await manager.post(`${fleet}/intervals`, { n: 'Hardening', cnme: 1, cnmd: 10000 });
    expect(interval.status, JSON.stringify(interval.body)).toBe(200);
    const item = await manager.post(`${fleet}/line_items`, { n: 'Hardening filter', t: 2, c: '1.5' });
    expect(item.status, JSON.stringify(item.body)).toBe(200);
    ids = {
      unit,
      driver,
      trailer,
      service: service.body.id,
      interval: interval.body.id,
      item: item.body.id,
    };
  });
  afterAll(() => t.close());

  /** `{"a":{"a":…}}` nested `depth` objects deep. */
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  /** `[[[…]]]` nested `depth` arrays deep, as the value of `key`. */
  const nestedArray = (key: string, depth: number) => `{"${key}":${'['.repeat(depth)}${']'.repeat(depth)}}`;

  describe('JSON nesting depth', () => {
    const routes = () => [
      ['PATCH', '/api/user/settings'],
      ['PUT', `${fleet}/units/${ids.unit}`],
      ['POST', `${fleet}/services`],
      ['PUT', `${fleet}`],
      ['POST', '/api/login'],
    ];

    it(`refuses a body nested deeper than ${JSON_DEPTH_MAX} with 400 error 4 on every route, never 500`, async () => {
      for (const [method, url] of routes()) {
        const client = url === '/api/login' ? t.anon : manager;
        for (const body of [nested(5000), nested(JSON_DEPTH_MAX + 1), nestedArray('n', 5000)]) {
          const res = await client.request(method!, url!, body);
          expect(res.status, `${method} ${url}`).toBe(400);
          expect(res.body).toEqual({ error: 4, reason: TOO_DEEP });
        }
      }
    });

    it('takes a body exactly at the limit to the contract (which answers for its fields)', async () => {
      const res = await manager.request(
        'PATCH',
        '/api/user/settings',
        `{"layer":${nested(JSON_DEPTH_MAX - 1)}}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['body.layer']);
    });

    it('does not count brackets inside strings', async () => {
      const res = await manager.patch('/api/user/settings', {
        layer: `${'['.repeat(100)}osm${'{'.repeat(20)}`,
      });
      expect(res.status).toBe(200);
      expect(res.body.layer).toMatch(/^\[+osm\{+$/);
      expect((await manager.patch('/api/user/settings', { layer: 'osm' })).status).toBe(200);
    });

    it('still answers malformed and empty JSON as before', async () => {
      expect((await manager.request('PATCH', '/api/user/settings', '{"lang": "en",')).body).toEqual({
        error: 4,
        reason: 'Invalid json',
      });
      const poisoned = await manager.request('PATCH', '/api/user/settings', '{"__proto__": {"lang": "de"}}');
      expect(poisoned.status).toBe(400);
    });
  });

  describe('an update naming no field', () => {
    type Target = { name: string; url: () => string; read: () => Promise<unknown> };
    const find = (list: any[], id: number) => list.find((x) => x.id === id);
    const targets: Target[] = [
      {
        name: 'unit',
        url: () => `${fleet}/units/${ids.unit}`,
        read: async () => find((await manager.get(`${fleet}/units`)).body.units, ids.unit),
      },
      {
        name: 'driver',
        url: () => `/api/drivers/${ids.driver}`,
        read: async () => find((await manager.get(`${fleet}/drivers`)).body.drivers, ids.driver),
      },
      {
        name: 'trailer',
        url: () => `/api/trailers/${ids.trailer}`,
        read: async () => find((await manager.get(`${fleet}/trailers`)).body.trailers, ids.trailer),
      },
      {
        name: 'service',
        url: () => `${fleet}/services/${ids.service}`,
        read: async () => (await manager.get(`${fleet}/services/${ids.service}`)).body,
      },
      {
        name: 'interval',
        url: () => `${fleet}/intervals/${ids.interval}`,
        read: async () => find((await manager.get(`${fleet}/intervals`)).body.intervals, ids.interval),
      },
      {
        name: 'line item',
        url: () => `${fleet}/line_items/${ids.item}`,
        read: async () => find((await manager.get(`${fleet}/line_items`)).body.line_items, ids.item),
      },
      {
        name: 'fleet',
        url: () => fleet,
        read: async () =>
          (await manager.get('/api/fleets')).body.fleets.find((f: any) => f.id === t.demo.fleetId),
      },
    ];

    for (const target of targets) {
      it(`${target.name}: {} and a body of unknown keys answer 400 "${NO_FIELD_TO_CHANGE}", changing nothing`, async () => {
        const before = await target.read();
        expect(before).toBeTruthy();
        const client = target.name === 'fleet' ? admin : manager;
        for (const body of [{}, { nothing: 1, su: 1 }]) {
          const res = await client.put(target.url(), body);
          expect(res.status, JSON.stringify(res.body)).toBe(400);
          expect(res.body).toEqual({ error: 4, reason: NO_FIELD_TO_CHANGE });
        }
        expect(await target.read()).toEqual(before);
      });

      it(`${target.name}: the record as read is still accepted (round trip)`, async () => {
        const before = (await target.read()) as Record<string, unknown>;
        const client = target.name === 'fleet' ? admin : manager;
        const res = await client.put(target.url(), before);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        // The server's own bookkeeping (a service's change times) may move; what the caller wrote may not.
        const { tm: _tm, updated: _updated, ...kept } = before;
        expect(await target.read()).toMatchObject(kept);
      });
    }

    it('a PATCH of the settings naming nothing is refused too', async () => {
      const res = await manager.patch('/api/user/settings', {});
      expect(res).toMatchObject({ status: 400, body: { error: 4, reason: NO_FIELD_TO_CHANGE } });
    });

    it('a confirmation, whose contract has no field, still takes an empty body', async () => {
      const res = await manager.put(`${fleet}/services/${ids.service}/confirm`, {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
  });

  describe('text that is not UTF-8', () => {
    /** Sends raw bytes: `\xff` in a JS string would be sent as the two UTF-8 bytes of U+00FF. */
    const sendBytes = async (
      base: string,
      method: string,
      url: string,
      parts: (string | number[])[],
      contentType: string,
      client?: Client,
    ) => {
      const body = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
      const headers: Record<string, string> = { 'content-type': contentType };
      if (client?.ssid) headers.authorization = `SSID ${client.ssid}`;
      const res = await fetch(base + url, { method, headers, body });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const fleetCount = async () =>
      (await t.server.ctx.db.kysely.selectFrom('fleets').select('id').execute()).length;
    const positionCount = async (deviceId: string) =>
      (
        await t.server.ctx.db.kysely
          .selectFrom('positions')
          .innerJoin('units', 'units.id', 'positions.unit_id')
          .select('positions.id')
          .where('units.device_id', '=', deviceId)
          .execute()
      ).length;
    // A stray byte, a byte-order mark of UTF-16 and an encoded surrogate (CESU-8): none is UTF-8.
    const invalid = [
      [0xff, 0xfe],
      [0xfe, 0xff],
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
    ];

    it('a JSON body answers 400 error 4 and writes nothing (no replacement characters stored)', async () => {
      const before = await fleetCount();
      for (const bytes of invalid) {
        const res = await sendBytes(
          t.url,
          'POST',
          '/api/fleets',
          ['{"n":"', bytes, '"}'],
          'application/json',
          admin,
        );
        expect(res, JSON.stringify(bytes)).toEqual({ status: 400, body: { error: 4, reason: NOT_UTF8 } });
      }
      expect(await fleetCount()).toBe(before);
      // Text of every script in UTF-8 is taken as sent.
      const name = 'Łódź Ölwechsel 漢字 🚚';
      const made = await sendBytes(
        t.url,
        'POST',
        '/api/fleets',
        [JSON.stringify({ n: name })],
        'application/json',
        admin,
      );
      expect(made.status).toBe(200);
      expect(made.body.n).toBe(name);
    });

    it('a form and a text body of a device answer 400 error 4 and store nothing, on both ingestion ports', async () => {
      const osmand = await startOsmandServer(t.server.ctx, 0, '127.0.0.1');
      try {
        const before = await positionCount('demo-021');
        const reading = `id=demo-021&lat=53.9&lon=27.5&timestamp=${Math.floor(Date.now() / 1000)}&note=`;
        for (const [base, url] of [
          [t.url, '/api/ingest/osmand'],
          [`http://127.0.0.1:${osmand.port}`, '/'],
        ] as const)
          for (const contentType of ['application/x-www-form-urlencoded', 'text/plain'])
            for (const bytes of invalid) {
              const res = await sendBytes(base, 'POST', url, [reading, bytes], contentType);
              expect(res, `${base}${url} ${contentType} ${JSON.stringify(bytes)}`).toEqual({
                status: 400,
                body: { error: 4, reason: NOT_UTF8 },
              });
            }
        expect(await positionCount('demo-021')).toBe(before);
      } finally {
        await osmand.close();
      }
    });
  });

  describe('multipart', () => {
    it('answers multipart/form-data without a boundary with 400 error 4, never 500', async () => {
      const url = `${fleet}/services/${ids.service}/attachments`;
      for (const contentType of ['multipart/form-data', 'multipart/form-data; charset=utf-8']) {
        const res = await manager.request('POST', url, 'garbage', { 'content-type': contentType });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body).toEqual({ error: 4, reason: MALFORMED_MULTIPART_REASON });
      }
    });

    it('answers a truncated multipart body with 400, never 500', async () => {
      const url = `${fleet}/services/${ids.service}/attachments`;
      const body = '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc';
      const res = await manager.request('POST', url, body, {
        'content-type': 'multipart/form-data; boundary=xyz',
      });
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.error).toBe(4);
    });
  });
});
