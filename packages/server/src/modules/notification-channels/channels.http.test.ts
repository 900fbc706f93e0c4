import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryWire, ServiceDomainEvent } from '@fleetkeep/core';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { remindDue } from '../../engine/index.js';
import { parseOutboundAllow } from '../../outbound/policy.js';
import { createServer } from '../../server.js';
import { deliveriesSettled, eventsSince, outboxMark } from '../../test/domain-events.js';
import { type Client, startTestServer, TEST_DB, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';
import { deliveriesOf, insertDeliveries } from './consumer.js';
import { DELIVERY_LEASE_SECONDS, deliveryWorker } from './worker.js';

/**
 * Notification channels through the real server (decisions in core
 * contracts/notification-channels.ts): set-ups per fleet, service events delivered to a real SMTP
 * server (in the set-up's language, with the link), to a real webhook receiver that checks the
 * signature, and to an imitation of the Telegram bot API; failures retried and logged; once per set-up.
 */

const PUBLIC_URL = 'https://fleet.example.com';

/** A real SMTP server keeping what arrives, parsed. */
async function startSmtp() {
  const mails: ParsedMail[] = [];
  /** Each mail's envelope recipients (RCPT TO), in the order of `mails`. */
  const envelopes: string[][] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const rcpt = session.envelope.rcptTo.map((r) => r.address);
      simpleParser(stream)
        .then((m) => {
          mails.push(m);
          envelopes.push(rcpt);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    mails,
    envelopes,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver: records every request, answers with the next scripted reply (default 200). */
async function startReceiver() {
  const received: Received[] = [];
  const replies: { status: number; body?: string; headers?: Record<string, string> }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const reply = replies.shift() ?? { status: 200, body: '{"ok":true}' };
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    replies,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** What a receiver does (docs/operations.md "Webhooks"): HMAC-SHA256 of "<timestamp>.<raw body>". */
function verify(secret: string, r: Received): boolean {
  const ts = r.headers['x-fleetkeep-timestamp'];
  const sig = r.headers['x-fleetkeep-signature'];
  const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${r.body}`).digest('hex')}`;
  return typeof sig === 'string' && sig === expected;
}

describe('notification channels', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  let bot: Awaited<ReturnType<typeof startReceiver>>;
  let manager: Client;
  let mechanic: Client;
  let api: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    hook = await startReceiver();
    bot = await startReceiver();
    // The receivers listen on loopback, which the default outbound policy (`external`) refuses.
    t = await startTestServer({
      config: {
        smtpUrl: smtp.url,
        publicUrl: PUBLIC_URL,
        outboundAllow: parseOutboundAllow('external,loopback'),
      },
    });
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    api = `/api/fleets/${fx.fleetId}`;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await hook?.close();
    await bot?.close();
  });

  const db = () => t.server.ctx.db.kysely;
  /** Set-ups of earlier tests out of the way: each test counts only its own deliveries. */
  beforeEach(async () => {
    await db().deleteFrom('channel_setups').execute();
    await db().deleteFrom('notification_deliveries').execute();
    hook.received.length = 0;
    hook.replies.length = 0;
    bot.received.length = 0;
    smtp.mails.length = 0;
    smtp.envelopes.length = 0;
  });
  /** Waits until the outbox consumers and the delivery worker have done everything due now. */
  const settled = () => deliveriesSettled(t.server.ctx);
  const createService = async (body: object) => {
    const res = await manager.post(fx.base, { n: 'Brake check', t: 'u', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: number; f: number };
  };
  const deliveries = async (query = '') => {
    const res = await manager.get(`${api}/deliveries${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.deliveries as DeliveryWire[];
  };
  const create = async (path: string, body: object) => {
    const res = await manager.post(`${api}/${path}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  describe('set-ups', () => {
    it('mail: create, list, GET → PUT round trip, delete; field errors for bad input', async () => {
      const made = await create('mails', {
        n: 'Office',
        k: 9,
        lang: 'de',
        recipients: ['a@example.com', 'a@example.com', 'b@example.com'],
      });
      expect(made).toEqual({
        id: expect.any(Number),
        n: 'Office',
        on: 1,
        k: 9,
        lang: 'de',
        recipients: ['a@example.com', 'b@example.com'],
      });
      const list = await manager.get(`${api}/mails`);
      expect(list.body).toEqual({ mails: [made] });
      const put = await manager.put(`${api}/mails/${made.id}`, { ...made, on: 0 });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body).toEqual({ ...made, on: 0 });

      const bad = await manager.post(`${api}/mails`, {
        n: 'Bad',
        k: 1,
        lang: 'xx',
        recipients: ['not-an-address'],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe(4);
      expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'body.lang',
        'body.recipients.0',
      ]);
      // No mass assignment of another fleet or an id.
      expect((await manager.put(`${api}/mails/${made.id}`, { fleet_id: 2 })).status).toBe(400);

      expect((await manager.delete(`${api}/mails/${made.id}`)).body).toEqual({ error: 0 });
      expect((await manager.delete(`${api}/mails/${made.id}`)).status).toBe(404);
      // A set-up of one channel is not reachable through another channel's path.
      const hookMade = await create('webhooks', { n: 'H', k: 1, url: `${hook.url}/x` });
      expect((await manager.put(`${api}/mails/${hookMade.id}`, { k: 2 })).status).toBe(404);
    });

    it('bot: the token is write-only (set, last 4), kept by a PUT without it', async () => {
      const made = await create('bots', {
        n: 'Chat',
        k: 31,
        lang: 'en',
        token: '123456:SECRET-TOKEN',
        chats: ['-1001', '@fleet_chan'],
      });
      expect(made).toEqual({
        id: expect.any(Number),
        n: 'Chat',
        on: 1,
        k: 31,
        lang: 'en',
        url: 'https://api.telegram.org',
        token_set: 1,
        token_tail: 'OKEN',
        chats: ['-1001', '@fleet_chan'],
      });
      expect(JSON.stringify((await manager.get(`${api}/bots`)).body)).not.toContain('SECRET');
      const put = await manager.put(`${api}/bots/${made.id}`, { ...made, url: bot.url });
      expect(put.body).toMatchObject({ url: bot.url, token_set: 1, token_tail: 'OKEN' });
      // The saved token is used by a test that sends none.
      const test = await manager.post(`${api}/bots/test`, { ...put.body, token: undefined });
      expect(test.body).toEqual({ ok: true });
      expect(bot.received.map((r) => r.path)).toEqual([
        '/bot123456:SECRET-TOKEN/sendMessage',
        '/bot123456:SECRET-TOKEN/sendMessage',
      ]);
      expect(JSON.parse(bot.received[0]!.body)).toMatchObject({ chat_id: '-1001' });
      const bad = await manager.post(`${api}/bots`, { n: 'B', k: 1, lang: 'en', token: 'a/b', chats: ['x'] });
      expect(bad.status).toBe(400);
      expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'body.chats.0',
        'body.token',
      ]);
    });

    it('webhook: bad URL refused; the secret is write-only and "" removes it', async () => {
      const bad = await manager.post(`${api}/webhooks`, { n: 'W', k: 1, url: 'ftp://example.com/x' });
      expect(bad.status).toBe(400);
      expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['body.url']);
      const made = await create('webhooks', {
        n: 'ERP',
        k: 31,
        url: `${hook.url}/in`,
        secret: 's3cret-value',
      });
      expect(made).toEqual({
        id: expect.any(Number),
        n: 'ERP',
        on: 1,
        k: 31,
        url: `${hook.url}/in`,
        lang: 'en',
        secret_set: 1,
        secret_tail: 'alue',
      });
      expect((await manager.put(`${api}/webhooks/${made.id}`, { ...made, n: 'ERP 2' })).body).toMatchObject({
        n: 'ERP 2',
        secret_set: 1,
      });
      expect((await manager.put(`${api}/webhooks/${made.id}`, { secret: '' })).body).toMatchObject({
        secret_set: 0,
        secret_tail: '',
      });
    });
  });

  describe('send test', () => {
    it('mail: arrives in the language of the form, with no saved set-up needed', async () => {
      const res = await manager.post(`${api}/mails/test`, {
        k: 4,
        lang: 'de',
        recipients: ['t@example.com'],
      });
      expect(res.body).toEqual({ ok: true });
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]!.subject).toBe('Benachrichtigung: Testwartung (Testobjekt) — Überfällig');
    });

    it('every test is logged (test: 1), one row per recipient, a mail to each alone', async () => {
      const mail = await manager.post(`${api}/mails/test`, {
        n: 'Form',
        k: 1,
        lang: 'en',
        recipients: ['x@example.com', 'y@example.com'],
      });
      expect(mail.body).toEqual({ ok: true });
      expect(smtp.mails.map((m) => (m.to as { text: string }).text).sort()).toEqual([
        'x@example.com',
        'y@example.com',
      ]);
      expect(smtp.envelopes.map((e) => e.length)).toEqual([1, 1]);
      hook.replies.push({ status: 500, body: 'nope' });
      const saved = await create('webhooks', { n: 'Saved hook', k: 4, url: `${hook.url}/s` });
      const wh = await manager.post(`${api}/webhooks/test`, { id: saved.id, k: 4, url: `${hook.url}/s` });
      expect(wh.body).toEqual({ ok: false, reason: 'HTTP 500: nope' });
      const log = await deliveries();
      expect(log).toHaveLength(3);
      expect(log[0]).toMatchObject({
        channel: 'webhook',
        test: 1,
        setup_id: saved.id,
        setup_name: 'Saved hook',
        status: 'failed',
        error: 'HTTP 500: nope',
        attempts: 1,
        sid: null,
        next_tm: null,
        recipient: '',
      });
      expect(
        log
          .slice(1)
          .map((d) => [d.channel, d.test, d.setup_id, d.setup_name, d.status, d.recipient])
          .sort(),
      ).toEqual([
        ['mail', 1, 0, 'Form', 'sent', 'x@example.com'],
        ['mail', 1, 0, 'Form', 'sent', 'y@example.com'],
      ]);
      // A logged test is never retried, by the worker or by hand.
      await deliveryWorker(t.server.ctx).drain();
      expect(hook.received).toHaveLength(1);
      expect((await manager.post(`${api}/deliveries/${log[0]!.id}/retry`, {})).status).toBe(409);
    });

    it('mail without SMTP_URL: a clear 409, not a fault', async () => {
      const saved = t.server.ctx.config.smtpUrl;
      t.server.ctx.config.smtpUrl = undefined;
      try {
        const res = await manager.post(`${api}/mails/test`, {
          k: 1,
          lang: 'en',
          recipients: ['t@example.com'],
        });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: 10, reason: expect.stringContaining('SMTP_URL') });
      } finally {
        t.server.ctx.config.smtpUrl = saved;
      }
    });

    it('webhook: signed test payload; a failing receiver, a redirect and a bot saying ok:false are reported', async () => {
      const ok = await manager.post(`${api}/webhooks/test`, {
        k: 1,
        url: `${hook.url}/t`,
        secret: 'test-secret',
      });
      expect(ok.body).toEqual({ ok: true });
      expect(verify('test-secret', hook.received[0]!)).toBe(true);
      expect(JSON.parse(hook.received[0]!.body)).toMatchObject({ event: { type: 'test', kind: 1 } });

      hook.replies.push({ status: 500, body: 'boom' });
      const failed = await manager.post(`${api}/webhooks/test`, { k: 1, url: `${hook.url}/t` });
      expect(failed.body).toEqual({ ok: false, reason: 'HTTP 500: boom' });

      hook.replies.push({ status: 302, headers: { location: 'http://evil.example.com/' } });
      const redirected = await manager.post(`${api}/webhooks/test`, { k: 1, url: `${hook.url}/t` });
      expect(redirected.body).toEqual({
        ok: false,
        reason: 'Redirect not followed: HTTP 302 to http://evil.example.com/',
      });

      bot.replies.push({ status: 200, body: '{"ok":false,"description":"chat not found"}' });
      const botFailed = await manager.post(`${api}/bots/test`, {
        k: 1,
        lang: 'en',
        url: bot.url,
        token: '1:x',
        chats: ['7'],
      });
      expect(botFailed.body).toEqual({ ok: false, reason: '7: chat not found' });
    });
  });

  describe('critical fault codes (kind 32)', () => {
    it('a unit’s critical code goes to the set-ups that take kind 32: e-mail, signed webhook, bot', async () => {
      const unit = await db()
        .selectFrom('units')
        .select(['id', 'name'])
        .where('device_id', '=', 'demo-008')
        .executeTakeFirstOrThrow();
      const critical = await manager.put(`${api}/critical-fault-codes`, { codes: ['P03'] });
      expect(critical.status).toBe(200);
      try {
        await create('mails', { n: 'Workshop', k: 32, lang: 'en', recipients: ['workshop@example.com'] });
        const secret = 'hook-secret-dtc';
        const wh = await create('webhooks', { n: 'ERP', k: 32, lang: 'de', url: `${hook.url}/dtc`, secret });
        await create('webhooks', { n: 'Services only', k: 31, url: `${hook.url}/services` });
        await create('bots', {
          n: 'Chat',
          k: 32 | 1,
          lang: 'en',
          url: bot.url,
          token: '9:tok',
          chats: ['42'],
        });
        const m = await outboxMark(db());
        const iso = new Date(now() * 1000).toISOString();
        const res = await t.anon.post('/api/ingest/traccar', {
          position: { fixTime: iso, latitude: 53.9, longitude: 27.5, attributes: { dtcs: 'P0301 P0171' } },
          device: { uniqueId: 'demo-008' },
        });
        expect(res.body).toEqual({ ok: true });
        await settled();

        // P0171 is not critical: only P0301 is sent, once per set-up that takes kind 32.
        const opened = (await eventsSince(db(), m, ['unit.faultCode'])).find((e: any) => e.code === 'P0301')!;
        const link = `${PUBLIC_URL}/unit/${unit.id}?tab=faults`;
        expect(hook.received.map((r) => r.path)).toEqual(['/dtc']);
        const r = hook.received[0]!;
        expect(verify(secret, r)).toBe(true);
        expect(r.headers['x-fleetkeep-event']).toBe('unit.faultCode');
        const body = JSON.parse(r.body);
        expect(body).toMatchObject({
          event: { id: opened.id, kind: 32, kind_name: 'criticalFault' },
          fleet: { id: fx.fleetId },
          service: null,
          object: { type: 'unit', id: unit.id, name: unit.name },
          fault: { code: 'P0301', count: 1, reopened: false },
          link,
        });
        expect(body.text.subject).toBe(`Kritischer Fehlercode P0301: ${unit.name}`);

        expect(smtp.mails).toHaveLength(1);
        expect(smtp.mails[0]!.subject).toBe(`Critical fault code P0301: ${unit.name}`);
        expect(smtp.mails[0]!.text).toContain(`${unit.name} reported the critical fault code P0301`);
        expect(smtp.mails[0]!.text).toContain(link);

        expect(bot.received).toHaveLength(1);
        expect(JSON.parse(bot.received[0]!.body).text).toContain('P0301');

        const log = await deliveries();
        expect(log).toHaveLength(3);
        expect(log.every((d) => d.kind === 32 && d.status === 'sent' && d.event_id === opened.id)).toBe(true);
        expect(log.find((d) => d.channel === 'webhook')).toMatchObject({ setup_id: wh.id, sid: null });
      } finally {
        await manager.put(`${api}/critical-fault-codes`, { codes: [] });
      }
    });
  });

  describe('deliveries of service events', () => {
    it('a Due and a Closed service: e-mail in German with the link, signed webhook, bot message', async () => {
      const mail = await create('mails', {
        n: 'Office',
        k: 1 | 8,
        lang: 'de',
        recipients: ['office@example.com'],
      });
      const secret = 'hook-secret-1';
      const wh = await create('webhooks', { n: 'ERP', k: 8, lang: 'fr', url: `${hook.url}/in`, secret });
      await create('bots', { n: 'Chat', k: 1, lang: 'en', url: bot.url, token: '9:tok', chats: ['42'] });
      const uid = await fx.unit();
      const m = await outboxMark(db());
      const due = await createService({ uid, f: 1, n: 'Oil <change> & filter' });
      const closed = await createService({ uid, f: 8, n: 'Brakes' });
      await settled();

      expect(smtp.mails).toHaveLength(2);
      const dueMail = smtp.mails.find((x) => x.subject?.includes('Oil'))!;
      expect(dueMail.subject).toMatch(
        /^Benachrichtigung: Oil <change> & filter \(svc unit \d+\) — Anstehend$/,
      );
      expect(dueMail.text).toContain(`${PUBLIC_URL}/service/${due.id}`);
      expect(dueMail.text).toContain('Wartung öffnen');
      expect(String(dueMail.html)).toContain('Oil &lt;change&gt; &amp; filter');
      expect(String(dueMail.html)).not.toContain('<change>');
      expect((dueMail.to as { text: string }).text).toBe('office@example.com');
      expect(smtp.mails.find((x) => x.subject?.includes('Brakes'))?.subject).toMatch(/— Abgeschlossen$/);

      // The webhook takes closed (8) only; signed; the payload of PRODUCT.md.
      expect(hook.received).toHaveLength(1);
      const r = hook.received[0]!;
      expect(verify(secret, r)).toBe(true);
      expect(verify('another secret', r)).toBe(false);
      const closedEvent = (await eventsSince(db(), m, ['service.created'])).find(
        (e) => (e as ServiceDomainEvent).serviceId === closed.id,
      )!;
      expect(r.headers['x-fleetkeep-event']).toBe('service.created');
      expect(JSON.parse(r.body)).toMatchObject({
        event: { id: closedEvent.id, kind: 8, kind_name: 'closed' },
        fleet: { id: fx.fleetId },
        service: { id: closed.id, name: 'Brakes', f: closed.f },
        object: { type: 'unit', id: uid },
        link: `${PUBLIC_URL}/service/${closed.id}`,
      });
      // Worded in the set-up's language (French), as the e-mail is; the data keeps its machine names.
      const text = JSON.parse(r.body).text as { lang: string; subject: string; body: string };
      expect(text.lang).toBe('fr');
      expect(text.subject).toMatch(/^Notification : Brakes \(svc unit \d+\) — Clôturés$/);
      expect(text.body).toContain(`${PUBLIC_URL}/service/${closed.id}`);

      // The bot takes due (1) only.
      expect(bot.received).toHaveLength(1);
      expect(bot.received[0]!.path).toBe('/bot9:tok/sendMessage');
      const msg = JSON.parse(bot.received[0]!.body);
      expect(msg.chat_id).toBe('42');
      expect(msg.text).toContain('Oil <change> & filter');
      expect(msg.text).toContain(`${PUBLIC_URL}/service/${due.id}`);

      // The log: newest first, one sent row per set-up and matching event.
      const log = await deliveries();
      expect(log).toHaveLength(4);
      expect(log.every((d) => d.status === 'sent' && d.attempts === 1 && d.error === null)).toBe(true);
      expect(log.map((d) => d.id)).toEqual([...log.map((d) => d.id)].sort((a, b) => b - a));
      expect(log.filter((d) => d.channel === 'mail').map((d) => d.setup_id)).toEqual([mail.id, mail.id]);
      expect(log.find((d) => d.channel === 'webhook')).toMatchObject({
        setup_id: wh.id,
        setup_name: 'ERP',
        event_id: closedEvent.id,
        kind: 8,
        sid: closed.id,
        next_tm: null,
      });
      expect(await deliveries('?channel=bot')).toHaveLength(1);
      expect(await deliveries('?status=failed')).toHaveLength(0);
    });

    it('a failing receiver: retried with backoff, then sent; the log shows the failure meanwhile', async () => {
      await create('webhooks', { n: 'Flaky', k: 1, url: `${hook.url}/flaky` });
      const uid = await fx.unit();
      hook.replies.push({ status: 500, body: 'down for maintenance' });
      const before = now();
      await createService({ uid, f: 1 });
      await settled();
      const [first] = await deliveries('?channel=webhook');
      expect(first).toMatchObject({
        status: 'pending',
        attempts: 1,
        error: 'HTTP 500: down for maintenance',
      });
      // The first retry waits a minute (core DELIVERY_BACKOFF_SECONDS).
      expect(first!.next_tm! - first!.last_tm!).toBe(60);
      expect(first!.last_tm!).toBeGreaterThanOrEqual(before);
      // Nothing is due yet: a run sends nothing.
      await deliveryWorker(t.server.ctx).drain();
      expect(hook.received).toHaveLength(1);
      // The minute has passed.
      await db()
        .updateTable('notification_deliveries')
        .set({ next_at: now() - 1 })
        .execute();
      await deliveryWorker(t.server.ctx).drain();
      expect(hook.received).toHaveLength(2);
      expect(hook.received[1]!.headers['x-fleetkeep-delivery']).toBe(String(first!.id));
      const [second] = await deliveries('?channel=webhook');
      expect(second).toMatchObject({
        id: first!.id,
        status: 'sent',
        attempts: 2,
        error: null,
        next_tm: null,
      });
    });

    it('gives up after the last attempt (status failed, the last error kept)', async () => {
      await create('webhooks', { n: 'Dead', k: 1, url: `${hook.url}/dead` });
      for (let i = 0; i < 10; i++) hook.replies.push({ status: 503, body: 'gone' });
      await createService({ uid: await fx.unit(), f: 1 });
      await settled();
      for (let i = 0; i < 6; i++) {
        await db()
          .updateTable('notification_deliveries')
          .set({ next_at: now() - 1 })
          .where('status', '=', 'pending')
          .execute();
        await deliveryWorker(t.server.ctx).drain();
      }
      const [d] = await deliveries('?status=failed');
      expect(d).toMatchObject({ status: 'failed', attempts: 5, error: 'HTTP 503: gone', next_tm: null });
      expect(hook.received).toHaveLength(5);
    });

    it('switched-off set-ups and kinds not asked for get nothing', async () => {
      await create('webhooks', { n: 'Off', on: 0, k: 31, url: `${hook.url}/off` });
      await create('webhooks', { n: 'Overdue only', k: 4, url: `${hook.url}/overdue` });
      await createService({ uid: await fx.unit(), f: 1 });
      await settled();
      expect(await deliveries()).toEqual([]);
      expect(hook.received).toEqual([]);
    });

    it('a delivery whose set-up is deleted while it waits is given up, and the log keeps it', async () => {
      const made = await create('webhooks', { n: 'Doomed', k: 1, url: `${hook.url}/doomed` });
      hook.replies.push({ status: 500, body: 'no' });
      await createService({ uid: await fx.unit(), f: 1 });
      await settled();
      expect((await deliveries())[0]).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await manager.delete(`${api}/webhooks/${made.id}`)).status).toBe(200);
      await db()
        .updateTable('notification_deliveries')
        .set({ next_at: now() - 1 })
        .execute();
      await deliveryWorker(t.server.ctx).drain();
      expect(hook.received).toHaveLength(1);
      expect(await deliveries()).toEqual([
        expect.objectContaining({
          setup_name: 'Doomed',
          status: 'failed',
          attempts: 1,
          error: 'The set-up was deleted',
          next_tm: null,
        }),
      ]);
    });

    it('a claim left unrecorded (a crash mid-send) is retried once its lease has run out', async () => {
      await create('webhooks', { n: 'Lease', k: 1, url: `${hook.url}/lease` });
      // Let the first send happen, then put the row back as a claim whose process died mid-send.
      await createService({ uid: await fx.unit(), f: 1 });
      await t.server.ctx.outbox.publishPending();
      await t.server.ctx.outbox.consumers.drainAll();
      await deliveryWorker(t.server.ctx).drain();
      hook.received.length = 0;
      // As a process that claimed it and died: attempts counted, next_at pushed by the lease, still pending.
      await db()
        .updateTable('notification_deliveries')
        .set({ status: 'pending', attempts: 1, next_at: now() + DELIVERY_LEASE_SECONDS, error: null })
        .execute();
      await deliveryWorker(t.server.ctx).drain();
      expect(hook.received).toHaveLength(0);
      await db()
        .updateTable('notification_deliveries')
        .set({ next_at: now() - 1 })
        .execute();
      await deliveryWorker(t.server.ctx).drain();
      expect(hook.received).toHaveLength(1);
      expect((await deliveries())[0]).toMatchObject({ status: 'sent', attempts: 2 });
    });

    it('a mail sent again after a lost record carries the Message-ID of the first', async () => {
      await create('mails', { n: 'Again', k: 1, lang: 'en', recipients: ['again@example.com'] });
      await createService({ uid: await fx.unit(), f: 1 });
      await settled();
      expect(smtp.mails).toHaveLength(1);
      const [row] = await deliveries('?channel=mail');
      const first = smtp.mails[0]!.messageId;
      expect(first).toBe(`<delivery.${fx.fleetId}.${row!.id}@${new URL(PUBLIC_URL).hostname}>`);
      // As a process that sent it and died before recording: claimed again once the lease ran out.
      await db()
        .updateTable('notification_deliveries')
        .set({ status: 'pending', attempts: 1, next_at: now() - 1, error: null })
        .execute();
      await deliveryWorker(t.server.ctx).drain();
      expect(smtp.mails).toHaveLength(2);
      expect(smtp.mails[1]!.messageId).toBe(first);
    });

    it('each event once per set-up, even when the consumer hands it over twice', async () => {
      await create('webhooks', { n: 'Once', k: 1, url: `${hook.url}/once` });
      const m = await outboxMark(db());
      await createService({ uid: await fx.unit(), f: 1 });
      await settled();
      const events = (await eventsSince(db(), m, ['service.created'])) as ServiceDomainEvent[];
      expect(events).toHaveLength(1);
      // A second hand-over of the same event (as after a crash before the cursor moved) inserts nothing.
      const again = await db()
        .transaction()
        .execute(async (trx) => insertDeliveries(trx, await deliveriesOf(trx, events)));
      expect(again).toBe(0);
      await deliveryWorker(t.server.ctx).drain();
      expect(hook.received).toHaveLength(1);
      expect(await deliveries()).toHaveLength(1);
    });

    it('a set-up made after an event does not receive it (a backlog handed over late is not history for it)', async () => {
      const m = await outboxMark(db());
      await createService({ uid: await fx.unit(), f: 1 });
      await settled();
      const events = (await eventsSince(db(), m, ['service.created'])) as ServiceDomainEvent[];
      expect(events).toHaveLength(1);
      const made = await create('webhooks', { n: 'Late', k: 1, url: `${hook.url}/late` });
      const handOver = () =>
        db()
          .transaction()
          .execute(async (trx) => deliveriesOf(trx, events));
      // Made a second after the event: as the outbox consumer reaching that event only now.
      await db()
        .updateTable('channel_setups')
        .set({ created_at: events[0]!.at + 1 })
        .where('id', '=', made.id)
        .execute();
      expect(await handOver()).toEqual([]);
      // Made in the event's second: it was there when it happened.
      await db()
        .updateTable('channel_setups')
        .set({ created_at: events[0]!.at })
        .where('id', '=', made.id)
        .execute();
      expect((await handOver()).map((d) => d.setup_id)).toEqual([made.id]);
    });

    it('an e-mail set-up with several recipients: one message each, each seeing only its own address', async () => {
      const addrs = ['a@example.com', 'b@example.com', 'c@example.com'];
      await create('mails', { n: 'Crew', k: 1, lang: 'en', recipients: addrs });
      const due = await createService({ uid: await fx.unit(), f: 1, n: 'Tyres' });
      await settled();
      expect(smtp.mails).toHaveLength(3);
      const seen = smtp.mails.map((m, i) => ({
        to: (m.to as { text: string }).text,
        cc: m.cc,
        bcc: m.bcc,
        rcpt: smtp.envelopes[i],
      }));
      // Exactly one mail per address, addressed to it alone, in the header and the envelope.
      expect(seen.map((x) => x.to).sort()).toEqual(addrs);
      for (const x of seen) {
        expect(x.rcpt).toEqual([x.to]);
        expect(x.cc).toBeUndefined();
        expect(x.bcc).toBeUndefined();
      }
      for (const m of smtp.mails)
        for (const a of addrs)
          if (a !== (m.to as { text: string }).text) expect(m.headers.get('to')).not.toContain(a);
      // The log: one sent row per recipient, same event.
      const log = await deliveries('?channel=mail');
      expect(log.map((d) => d.recipient).sort()).toEqual(addrs);
      expect(new Set(log.map((d) => d.event_id)).size).toBe(1);
      expect(log.every((d) => d.status === 'sent' && d.sid === due.id && d.test === 0)).toBe(true);
      // A second hand-over of the same event adds nobody.
      await deliveryWorker(t.server.ctx).drain();
      expect(smtp.mails).toHaveLength(3);
    });

    it('a failing chat is retried alone; a recipient removed meanwhile is given up', async () => {
      const made = await create('bots', {
        n: 'Chats',
        k: 1,
        lang: 'de',
        url: bot.url,
        token: '5:abc',
        chats: ['1', '2', '3'],
      });
      bot.replies.push({ status: 200 }, { status: 200, body: '{"ok":false,"description":"chat not found"}' });
      await createService({ uid: await fx.unit(), f: 1, n: 'Ölwechsel' });
      await settled();
      expect(bot.received.map((r) => JSON.parse(r.body).chat_id)).toEqual(['1', '2', '3']);
      // In the set-up's language (German).
      expect(JSON.parse(bot.received[0]!.body).text).toContain('Anstehend');
      const log = await deliveries('?channel=bot');
      expect(log.find((d) => d.recipient === '2')).toMatchObject({
        status: 'pending',
        error: '2: chat not found',
      });
      expect(
        log
          .filter((d) => d.status === 'sent')
          .map((d) => d.recipient)
          .sort(),
      ).toEqual(['1', '3']);
      // Chat 2 leaves the set-up before its retry: given up, nothing sent to it.
      expect((await manager.put(`${api}/bots/${made.id}`, { chats: ['1', '3'] })).status).toBe(200);
      await db()
        .updateTable('notification_deliveries')
        .set({ next_at: now() - 1 })
        .where('status', '=', 'pending')
        .execute();
      bot.received.length = 0;
      await deliveryWorker(t.server.ctx).drain();
      expect(bot.received).toHaveLength(0);
      expect((await deliveries('?status=failed'))[0]).toMatchObject({
        recipient: '2',
        error: 'The recipient was removed from the set-up',
      });
    });

    it('a failed delivery is retried by hand once more; sent ones, tests and other fleets refuse', async () => {
      await create('webhooks', { n: 'Down', k: 1, url: `${hook.url}/down` });
      hook.replies.push({ status: 500, body: 'x' });
      await createService({ uid: await fx.unit(), f: 1 });
      await settled();
      // Given up (as after the last attempt).
      await db()
        .updateTable('notification_deliveries')
        .set({ status: 'failed', next_at: null, attempts: 5 })
        .execute();
      const [failed] = await deliveries();
      const retried = await manager.post(`${api}/deliveries/${failed!.id}/retry`, {});
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toMatchObject({ id: failed!.id, status: 'pending', attempts: 5 });
      await deliveryWorker(t.server.ctx).drain();
      expect(hook.received).toHaveLength(2);
      expect((await deliveries())[0]).toMatchObject({ status: 'sent', attempts: 6, error: null });
      // Sent: nothing to retry.
      const again = await manager.post(`${api}/deliveries/${failed!.id}/retry`, {});
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 10, reason: expect.any(String) });
      // Another fleet's path, or an unknown id: not found; a mechanic: forbidden.
      expect((await manager.post(`${api}/deliveries/999999/retry`, {})).status).toBe(404);
      expect((await mechanic.post(`${api}/deliveries/${failed!.id}/retry`, {})).status).toBe(403);
      expect(hook.received).toHaveLength(2);
    });

    it('the "days before" reminder of a Due service is delivered once, on its day in the fleet\'s zone', async () => {
      await create('webhooks', { n: 'Reminders', k: 1, url: `${hook.url}/remind` });
      const uid = await fx.unit();
      // Planned in 5 days, reminded 2 days before: the reminder day is day 3 (fleet time zone).
      const s = await createService({ uid, f: 1, limit_date: fx.iso(5), notify_days: 2 });
      await settled();
      hook.received.length = 0;
      const reminders = () =>
        hook.received.filter((r) => r.headers['x-fleetkeep-event'] === 'service.reminder');
      // Before its day: nothing.
      await remindDue(t.server.ctx, fx.day(3) - 3600);
      await settled();
      expect(reminders()).toHaveLength(0);
      // On its day, however often the engine looks: once.
      await remindDue(t.server.ctx, fx.day(3) + 60);
      await remindDue(t.server.ctx, fx.day(3) + 7200);
      await settled();
      await remindDue(t.server.ctx, fx.day(4) + 60);
      await settled();
      expect(reminders()).toHaveLength(1);
      expect(JSON.parse(reminders()[0]!.body)).toMatchObject({
        event: { type: 'service.reminder', kind: 1 },
        service: { id: s.id },
      });
      expect((await deliveries()).filter((d) => d.sid === s.id && d.status === 'sent')).toHaveLength(2);
    });

    // Several instances share one database only on PostgreSQL (SQLite: one instance).
    if (TEST_DB === 'postgres')
      it('two instances on one PostgreSQL deliver each event once per set-up', async () => {
        const second = await createServer(t.config);
        try {
          await create('webhooks', { n: 'Shared', k: 1, url: `${hook.url}/shared` });
          const uid = await fx.unit();
          for (let i = 0; i < 6; i++) await createService({ uid, f: 1, n: `Svc ${i}` });
          await Promise.all([t.server.ctx.outbox.publishPending(), second.ctx.outbox.publishPending()]);
          await Promise.all([
            t.server.ctx.outbox.consumers.drainAll(),
            second.ctx.outbox.consumers.drainAll(),
          ]);
          await expect.poll(async () => (await deliveries()).length, { timeout: 10_000 }).toBe(6);
          await Promise.all([deliveryWorker(t.server.ctx).drain(), deliveryWorker(second.ctx).drain()]);
          await expect
            .poll(async () => (await deliveries('?status=sent')).length, { timeout: 10_000 })
            .toBe(6);
          const ids = hook.received.map((r) => r.headers['x-fleetkeep-delivery']);
          expect(ids).toHaveLength(6);
          expect(new Set(ids).size).toBe(6);
        } finally {
          await second.close();
        }
      });
  });

  describe('other fleets', () => {
    it("another fleet's set-ups and deliveries stay invisible", async () => {
      const other = t.demo.otherFleetId;
      const t0 = now();
      const row = await db()
        .insertInto('channel_setups')
        .values({
          fleet_id: other,
          channel: 'webhook',
          name: 'Northwind hook',
          enabled: 1,
          kinds: 31,
          lang: null,
          config: JSON.stringify({ url: `${hook.url}/nw` }),
          secret: null,
          created_at: t0,
          updated_at: t0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await manager.get(`${api}/webhooks`)).body).toEqual({ webhooks: [] });
      expect((await manager.delete(`${api}/webhooks/${row.id}`)).status).toBe(404);
      expect((await manager.get(`/api/fleets/${other}/webhooks`)).status).toBe(403);
      expect((await mechanic.get(`${api}/webhooks`)).status).toBe(403);
      expect((await mechanic.get(`${api}/deliveries`)).status).toBe(403);
    });
  });
});
