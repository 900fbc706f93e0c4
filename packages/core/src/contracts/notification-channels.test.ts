import { describe, expect, it } from 'vitest';
import {
  BOT_CHATS_MAX,
  botSetupBody,
  botSetupTestBody,
  botSetupUpdateBody,
  DEFAULT_BOT_BASE_URL,
  DELIVERIES_LIST_DEFAULT,
  deliveriesQuery,
  MAIL_RECIPIENTS_MAX,
  mailSetupBody,
  mailSetupUpdateBody,
  webhookSetupBody,
  webhookSetupUpdateBody,
} from './notification-channels.js';

const mail = { n: 'Office', k: 1, lang: 'de', recipients: ['fleet@example.com'] };
const bot = { n: 'Chat', k: 5, lang: 'en', token: '123456:ABC-def_9', chats: ['-1001', '@fleet_chan'] };
const hook = { n: 'ERP', k: 31, url: 'https://erp.example.com/hook' };
const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => i.path.join('.'));

describe('mail set-ups (spec §7 "E-mail notification configs")', () => {
  it('takes a valid set-up and switches it on by default', () => {
    expect(mailSetupBody.parse(mail)).toEqual({ ...mail, on: 1 });
  });
  it('refuses a bad e-mail, an unknown language, an empty or too long list, unknown keys', () => {
    expect(paths(mailSetupBody.safeParse({ ...mail, recipients: ['a@b.de', 'not-mail'] }))).toEqual([
      'recipients.1',
    ]);
    expect(paths(mailSetupBody.safeParse({ ...mail, lang: 'xx' }))).toEqual(['lang']);
    expect(paths(mailSetupBody.safeParse({ ...mail, recipients: [] }))).toEqual(['recipients']);
    const many = Array.from({ length: MAIL_RECIPIENTS_MAX + 1 }, (_, i) => `u${i}@example.com`);
    expect(paths(mailSetupBody.safeParse({ ...mail, recipients: many }))).toEqual(['recipients']);
    expect(mailSetupBody.safeParse({ ...mail, fleet_id: 2 }).success).toBe(false);
    expect(paths(mailSetupBody.safeParse({ ...mail, k: 0 }))).toEqual(['k']);
    // 32 is a unit's critical fault code, 64 an issue reported, kinds of the channels; no bit above is one.
    expect(mailSetupBody.safeParse({ ...mail, k: 32 }).success).toBe(true);
    expect(mailSetupBody.safeParse({ ...mail, k: 64 }).success).toBe(true);
    expect(mailSetupBody.safeParse({ ...mail, k: 128 | 256 }).success).toBe(true);
    // 512 is an inspection with defects (docs/product.md "Inspections").
    expect(mailSetupBody.safeParse({ ...mail, k: 512 | 64 | 32 | 1 }).success).toBe(true);
    // 1024 low stock, 2048 a document expiring, 4096 a tyre's tread low (docs/product.md "Store rights").
    expect(mailSetupBody.safeParse({ ...mail, k: 1024 | 2048 | 4096 }).success).toBe(true);
    expect(paths(mailSetupBody.safeParse({ ...mail, k: 8192 }))).toEqual(['k']);
  });
  it('PUT takes the set-up as read and does not switch it on by default', () => {
    expect(mailSetupUpdateBody.parse({ id: 4, n: 'X' })).toEqual({ n: 'X' });
  });
});

describe('bot set-ups', () => {
  it('defaults the base URL to the Telegram API', () => {
    expect(botSetupBody.parse(bot).url).toBe(DEFAULT_BOT_BASE_URL);
  });
  it('refuses a token that would change the API path, bad chat ids, a non-http base URL', () => {
    expect(paths(botSetupBody.safeParse({ ...bot, token: '1:a/../x' }))).toEqual(['token']);
    expect(paths(botSetupBody.safeParse({ ...bot, chats: ['12a'] }))).toEqual(['chats.0']);
    expect(paths(botSetupBody.safeParse({ ...bot, url: 'file:///etc/passwd' }))).toEqual(['url']);
    const many = Array.from({ length: BOT_CHATS_MAX + 1 }, (_, i) => `${i}`);
    expect(paths(botSetupBody.safeParse({ ...bot, chats: many }))).toEqual(['chats']);
    expect(paths(botSetupBody.safeParse({ ...bot, token: undefined }))).toEqual(['token']);
  });
  it('PUT takes the reply with token_set/token_tail and no token (kept)', () => {
    expect(botSetupUpdateBody.parse({ id: 1, token_set: 1, token_tail: 'f_9', k: 2 })).toEqual({ k: 2 });
  });
  it('test takes no token (the saved one is used)', () => {
    expect(botSetupTestBody.safeParse({ ...bot, token: undefined, id: 3 }).success).toBe(true);
  });
});

describe('webhook set-ups', () => {
  it('takes an optional secret of at least 8 characters, or "" for none', () => {
    expect(webhookSetupBody.safeParse(hook).success).toBe(true);
    expect(webhookSetupBody.safeParse({ ...hook, secret: '' }).success).toBe(true);
    expect(paths(webhookSetupBody.safeParse({ ...hook, secret: 'short' }))).toEqual(['secret']);
    expect(webhookSetupBody.safeParse({ ...hook, secret: 'long enough' }).success).toBe(true);
  });
  it('takes only http and https URLs', () => {
    expect(paths(webhookSetupBody.safeParse({ ...hook, url: 'ftp://x.example.com' }))).toEqual(['url']);
    expect(paths(webhookSetupBody.safeParse({ ...hook, url: 'nonsense' }))).toEqual(['url']);
    expect(webhookSetupBody.safeParse({ ...hook, url: 'http://127.0.0.1:8080/x' }).success).toBe(true);
  });
  it('PUT drops the read-only fields', () => {
    expect(webhookSetupUpdateBody.parse({ id: 1, secret_set: 0, secret_tail: '', on: 0 })).toEqual({ on: 0 });
  });
});

describe('delivery log query', () => {
  it('defaults the limit and refuses unknown channels and statuses', () => {
    expect(deliveriesQuery.parse({})).toEqual({ limit: DELIVERIES_LIST_DEFAULT });
    expect(deliveriesQuery.safeParse({ channel: 'sms' }).success).toBe(false);
    expect(deliveriesQuery.safeParse({ status: 'done' }).success).toBe(false);
    expect(deliveriesQuery.parse({ channel: 'bot', status: 'failed', limit: '5' })).toEqual({
      channel: 'bot',
      status: 'failed',
      limit: 5,
    });
  });
});
