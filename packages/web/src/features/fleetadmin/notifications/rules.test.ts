import type { BotSetupWire, WebhookSetupWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../../lib/coreResolver.ts';
import {
  type AnySetup,
  type Channel,
  draftOf,
  type SetupDraft,
  serverFieldOf,
  setupBody,
  setupSchema,
  splitList,
  testBody,
} from './rules.ts';

/** The form's problems: the draft's body under the core contract of its save, by field. */
function draftProblems(channel: Channel, draft: SetupDraft, saved: AnySetup | null) {
  const found = schemaProblems(setupSchema(channel, saved), setupBody(channel, draft), serverFieldOf);
  return Object.fromEntries(Object.entries(found.fields).map(([field, p]) => [field, p?.problem]));
}

const bot: BotSetupWire = {
  id: 4,
  n: 'Bot',
  on: 1,
  k: 9,
  lang: 'de',
  url: 'https://bots.example',
  token_set: 1,
  token_tail: 'wxyz',
  chats: ['-100', '@fleet'],
};
const hook: WebhookSetupWire = {
  id: 5,
  n: 'Hook',
  on: 0,
  k: 31,
  url: 'https://h.example/x',
  lang: 'de',
  secret_set: 1,
  secret_tail: 'abcd',
};

describe('notification set-up forms', () => {
  it('lists are lines or comma-separated, trimmed, without empty entries', () => {
    expect(splitList(' a@x.io\n\n b@x.io , c@x.io;')).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
  });

  it('a new set-up is checked with the core contract: a name, a kind, a new bot a token, chats and a URL', () => {
    const draft = { ...draftOf('bot', null, 'en'), k: 0 };
    expect(draft.url).toBe('https://api.telegram.org');
    expect(draftProblems('bot', draft, null)).toEqual({
      n: 'required',
      k: 'tooSmall',
      chats: 'required',
      token: 'required',
    });
    expect(draftProblems('bot', { ...draft, url: 'ftp://x' }, null).url).toBe('invalid');
  });

  it('a saved bot keeps its stored token: none is required and none is sent', () => {
    const draft = draftOf('bot', bot, 'en');
    expect(draft).toMatchObject({ lang: 'de', chats: '-100\n@fleet', token: '' });
    expect(draftProblems('bot', draft, bot)).toEqual({});
    expect(setupBody('bot', draft)).not.toHaveProperty('token');
    expect(setupBody('bot', { ...draft, token: ' 1:abc ' })).toMatchObject({ token: '1:abc' });
    // The test names the saved set-up, so the server uses its token.
    expect(testBody('bot', draft, bot)).toMatchObject({ id: 4, chats: ['-100', '@fleet'] });
  });

  it('a webhook secret is sent only when typed, or "" to remove it; too short is refused', () => {
    const draft = draftOf('webhook', hook, 'en');
    expect(draft.on).toBe(false);
    expect(setupBody('webhook', draft)).toEqual({
      n: 'Hook',
      on: 0,
      k: 31,
      lang: 'de',
      url: 'https://h.example/x',
    });
    expect(setupBody('webhook', { ...draft, removeSecret: true })).toMatchObject({ secret: '' });
    expect(setupBody('webhook', { ...draft, secret: 'longenough' })).toMatchObject({ secret: 'longenough' });
    expect(draftProblems('webhook', { ...draft, secret: 'short' }, hook).secret).toBe('tooShort');
  });

  it('mail recipients must look like addresses; in-app sends its users', () => {
    const mail = { ...draftOf('mail', null, 'fr'), n: 'M' };
    expect(draftProblems('mail', mail, null).recipients).toBe('required');
    expect(draftProblems('mail', { ...mail, recipients: 'a@b.c\nnope' }, null).recipients).toBe('invalid');
    expect(setupBody('mail', { ...mail, recipients: 'a@b.c' })).toEqual({
      n: 'M',
      on: 1,
      k: 31,
      lang: 'fr',
      recipients: ['a@b.c'],
    });
    expect(setupBody('inapp', { ...draftOf('inapp', null, 'en'), n: 'I', users: [3] })).toEqual({
      n: 'I',
      on: 1,
      k: 31,
      users: [3],
    });
  });

  it('server error paths map onto the form fields', () => {
    expect(serverFieldOf(['chats', '0'])).toBe('chats');
    expect(serverFieldOf(['secret'])).toBe('secret');
    expect(serverFieldOf(['users', '2'])).toBe('users');
    expect(serverFieldOf(['lang'])).toBeNull();
  });
});
