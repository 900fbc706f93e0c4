import { createHmac } from 'node:crypto';
import type { ChannelEventSnapshot } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { escapeHtml, linkOf, mailFrom, renderMail, webhookSignature } from './senders.js';

const snapshot: ChannelEventSnapshot = {
  eventId: 'e-1',
  type: 'service.due',
  kind: 1,
  at: 1_700_000_000,
  fleet: { id: 1, name: 'Acme <Fleet>', tz: 0, cur: 'EUR', ms: 1 },
  service: {
    id: 9,
    name: 'Oil <b>change</b> & "filter"',
    f: 1,
    plannedDate: 1_700_000_000,
    limitMileage: 16.09344,
    limitEngineHours: 250,
    cost: 12.5,
  },
  object: { type: 'u', id: 3, name: 'Truck & trailer' },
};

describe('notification mail', () => {
  it('words subject and body in the set-up language, with the link and the fleet units', () => {
    const mail = renderMail(snapshot, 'ru', 'https://fleet.example.com/');
    expect(mail.subject).toBe('Уведомление: Oil <b>change</b> & "filter" (Truck & trailer) — Предстоящие');
    expect(mail.text).toContain('https://fleet.example.com/service/9');
    expect(mail.text).toContain('Парк: Acme <Fleet>');
    // 16.09344 km is 10 miles: the fleet counts in miles (ms 1).
    expect(mail.text).toMatch(/Лимит пробега: 10 /);
    expect(mail.text).toContain('14.11.2023');
  });

  it("writes money with the currency's minor units and whole counters in the reader's locale", () => {
    const de = renderMail(
      { ...snapshot, service: { ...snapshot.service, cost: 1467.349, limitEngineHours: 12_345.6 } },
      'de',
      'https://fleet.example.com/',
    );
    expect(de.text).toContain('1.467,35\u00a0€');
    expect(de.text).toContain('12.346 ');
    expect(de.text).not.toContain('1467.349');
    const en = renderMail(
      { ...snapshot, service: { ...snapshot.service, cost: 1467.349 } },
      'en',
      'https://f.example',
    );
    expect(en.text).toContain('€1,467.35');
  });

  it("names the fleet's zone beside the time: a mail's reader may be anywhere", () => {
    const mail = renderMail(
      { ...snapshot, fleet: { ...snapshot.fleet, tz: 180 } },
      'en',
      'https://f.example',
    );
    // 1 700 000 000 is 2023-11-14 22:13:20 UTC, 01:13 on the 15th in a UTC+3 fleet.
    expect(mail.text).toContain('15.11.2023 01:13 (UTC+3)');
  });

  it('escapes every value in the HTML part', () => {
    const { html } = renderMail(snapshot, 'en', 'https://fleet.example.com');
    expect(html).toContain('Oil &lt;b&gt;change&lt;/b&gt; &amp; &quot;filter&quot;');
    expect(html).toContain('Acme &lt;Fleet&gt;');
    expect(html).not.toContain('<b>change');
    expect(html).toContain('<a href="https://fleet.example.com/service/9">Open the service</a>');
    expect(escapeHtml(`<'&">`)).toBe('&lt;&#39;&amp;&quot;&gt;');
  });

  it('a test names no service and links to the site', () => {
    expect(linkOf({ ...snapshot, service: { ...snapshot.service, id: 0 } }, 'https://f.example')).toBe(
      'https://f.example',
    );
  });

  it('sends from SMTP_FROM, else from the host of PUBLIC_URL', () => {
    expect(mailFrom({ smtpFrom: 'Ops <ops@x.example>', publicUrl: 'https://a.example' })).toBe(
      'Ops <ops@x.example>',
    );
    expect(mailFrom({ smtpFrom: undefined, publicUrl: 'https://fleet.example.com:8443/x' })).toBe(
      'Fleetkeep <fleetkeep@fleet.example.com>',
    );
  });
});

describe('webhook signature', () => {
  it('is sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>', () => {
    const body = '{"a":1}';
    const expected = createHmac('sha256', 'k').update(`1700000000.${body}`).digest('hex');
    expect(webhookSignature('k', 1_700_000_000, body)).toBe(`sha256=${expected}`);
    expect(webhookSignature('k', 1_700_000_001, body)).not.toBe(`sha256=${expected}`);
  });
});
