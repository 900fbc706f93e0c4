import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryWire } from '@fleetkeep/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseOutboundAllow } from '../../outbound/policy.js';
import { deliveriesSettled } from '../../test/domain-events.js';
import { type Client, startTestServer, TEST_DB, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * `FLEETKEEP_OUTBOUND_ALLOW` (outbound/policy.ts) through the real server: under the default
 * `external`, a fleet admin cannot point a webhook or a bot at the server's own host (saved, tested,
 * or by a name that resolves there at connect time), and the log says "refused by the server's
 * outbound policy", never the socket's error (which would map the host's ports).
 */

const REFUSED_EN = "Refused by the server's outbound policy";
const REFUSED_DE = 'Von der Richtlinie des Servers für ausgehende Verbindungen abgelehnt';
const UNREACHABLE_EN = 'Unreachable';
/** What a socket error would give away. */
const SOCKET_TEXT = /ECONN|EHOST|ENOTFOUND|127\.0\.0\.1|::1|connect|fetch failed/i;

/** A real HTTP receiver on the loopback interface, recording each request's path. */
async function startReceiver() {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { received, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe(`outbound policy (${TEST_DB})`, () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let manager: Client;
  let api: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    // The default: the setting unset.
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    api = `/api/fleets/${fx.fleetId}`;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const db = () => t.server.ctx.db.kysely;
  beforeEach(async () => {
    await db().deleteFrom('channel_setups').execute();
    await db().deleteFrom('notification_deliveries').execute();
    receiver.received.length = 0;
    t.server.ctx.config.outboundAllow = parseOutboundAllow(undefined);
  });
  const settled = () => deliveriesSettled(t.server.ctx);
  const deliveries = async () => {
    const res = await manager.get(`${api}/deliveries`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.deliveries as DeliveryWire[];
  };
  const createService = async () => {
    const res = await manager.post(fx.base, { n: 'Brake check', t: 'u', uid: await fx.unit(), f: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('is `external` by default', () => {
    expect(t.config.outboundAllow.text).toBe('external');
  });

  it('a webhook or bot URL naming an inside address is refused on save (400 on the url), in every spelling', async () => {
    const port = receiver.port;
    const inside = [
      `http://127.0.0.1:${port}/hook`,
      `http://2130706433:${port}/hook`,
      `http://0x7f.0.0.1:${port}/hook`,
      `http://127.1:${port}/hook`,
      `http://017700000001:${port}/hook`,
      `http://[::1]:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://10.0.0.5/hook',
      'http://0.0.0.0/hook',
    ];
    for (const url of inside) {
      const res = await manager.post(`${api}/webhooks`, { n: 'Inside', k: 1, url });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({
        error: 4,
        reason: 'Invalid input',
        details: [{ field: 'body.url', message: REFUSED_EN }],
      });
    }
    const bot = await manager.post(`${api}/bots`, {
      n: 'Bot',
      k: 1,
      lang: 'en',
      url: 'http://169.254.169.254',
      token: '1:abc',
      chats: ['42'],
    });
    expect(bot.status).toBe(400);
    expect(bot.body.details).toEqual([{ field: 'body.url', message: REFUSED_EN }]);
    // A saved set-up cannot be moved inside either; nothing of the refused PUT is written.
    const made = await manager.post(`${api}/webhooks`, {
      n: 'Outside',
      k: 1,
      url: 'https://hooks.example.com/in',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const put = await manager.put(`${api}/webhooks/${made.body.id}`, {
      n: 'Renamed',
      url: `http://[::1]:${port}/`,
    });
    expect(put.status).toBe(400);
    expect(put.body.details).toEqual([{ field: 'body.url', message: REFUSED_EN }]);
    expect((await manager.get(`${api}/webhooks`)).body.webhooks).toEqual([made.body]);
    expect(await db().selectFrom('channel_setups').select('name').execute()).toEqual([{ name: 'Outside' }]);

    // The message is in the reader's language.
    const lang = await manager.patch('/api/user/settings', { lang: 'de' });
    expect(lang.status, JSON.stringify(lang.body)).toBe(200);
    try {
      const de = await manager.post(`${api}/webhooks`, { n: 'Inside', k: 1, url: inside[0] });
      expect(de.body.details).toEqual([{ field: 'body.url', message: REFUSED_DE }]);
    } finally {
      await manager.patch('/api/user/settings', { lang: 'en' });
    }
  });

  it('a test send to an inside address is refused without connecting, and logged as refused', async () => {
    const hook = await manager.post(`${api}/webhooks/test`, {
      k: 1,
      url: `http://127.0.0.1:${receiver.port}/hook`,
    });
    expect(hook.body).toEqual({ ok: false, reason: REFUSED_EN });
    const bot = await manager.post(`${api}/bots/test`, {
      k: 1,
      lang: 'en',
      url: `http://[::ffff:7f00:1]:${receiver.port}`,
      token: '1:secret-token',
      chats: ['42'],
    });
    expect(bot.body).toEqual({ ok: false, reason: `42: ${REFUSED_EN}` });
    expect(receiver.received).toEqual([]);
    const log = await deliveries();
    expect(log.map((d) => [d.channel, d.status, d.error])).toEqual([
      ['bot', 'failed', `42: ${REFUSED_EN}`],
      ['webhook', 'failed', REFUSED_EN],
    ]);
  });

  it('a name that resolves to loopback passes the save check and is refused at connect', async () => {
    const made = await manager.post(`${api}/webhooks`, {
      n: 'Rebound',
      k: 1,
      url: `http://localhost:${receiver.port}/hook`,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await createService();
    await settled();
    expect(receiver.received).toEqual([]);
    const [d] = await deliveries();
    expect(d).toMatchObject({ channel: 'webhook', status: 'pending', attempts: 1, error: REFUSED_EN });
    expect(d!.error).not.toMatch(SOCKET_TEXT);
    // The test send of the same form says the same.
    const test = await manager.post(`${api}/webhooks/test`, {
      k: 1,
      url: `http://localhost:${receiver.port}/t`,
    });
    expect(test.body).toEqual({ ok: false, reason: REFUSED_EN });
  });

  it('with `loopback` allowed the real receiver gets the webhook; a closed port is only "unreachable"', async () => {
    t.server.ctx.config.outboundAllow = parseOutboundAllow('external,loopback');
    await manager.post(`${api}/webhooks`, { n: 'Local', k: 1, url: `http://localhost:${receiver.port}/in` });
    await manager.post(`${api}/bots`, {
      n: 'Local bot',
      k: 1,
      lang: 'en',
      url: `http://127.0.0.1:${receiver.port}`,
      token: '1:tok',
      chats: ['42'],
    });
    await createService();
    await settled();
    expect(receiver.received.sort()).toEqual(['/bot1:tok/sendMessage', '/in']);
    expect((await deliveries()).map((d) => d.status)).toEqual(['sent', 'sent']);

    // Nothing listens on port 9 (discard): the socket's error text is not shown.
    const closed = await manager.post(`${api}/webhooks/test`, { k: 1, url: 'http://127.0.0.1:9/x' });
    expect(closed.body).toEqual({ ok: false, reason: UNREACHABLE_EN });
  });
});
