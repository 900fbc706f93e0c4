import {
  type BotSetupWire,
  botSetupBody,
  botSetupUpdateBody,
  DEFAULT_BOT_BASE_URL,
  type InAppSetupWire,
  inAppSetupBody,
  inAppSetupUpdateBody,
  type MailSetupWire,
  mailSetupBody,
  mailSetupUpdateBody,
  type WebhookSetupWire,
  webhookSetupBody,
  webhookSetupUpdateBody,
} from '@fleetkeep/core';
import type { CoreSchema } from '../../../lib/coreResolver.ts';

/**
 * The fleet's notification set-ups (PRODUCT.md "Notifications"; core
 * contracts/notifications.ts for in-app, contracts/notification-channels.ts for e-mail, bot and
 * webhook): one draft for every channel, the core contract it is checked with, and the bodies the routes
 * take. Pure.
 */

export type Channel = 'inapp' | 'mail' | 'bot' | 'webhook';
export const CHANNELS: readonly Channel[] = ['inapp', 'mail', 'bot', 'webhook'];

export const CHANNEL_TITLE: Record<Channel, string> = {
  inapp: 'fleetAdmin.notify.inapp',
  mail: 'fleetAdmin.notify.mail',
  bot: 'fleetAdmin.notify.bot',
  webhook: 'fleetAdmin.notify.webhook',
};

/** A set-up of any channel as read. */
export type AnySetup = InAppSetupWire | MailSetupWire | BotSetupWire | WebhookSetupWire;

export interface SetupDraft {
  n: string;
  on: boolean;
  k: number;
  users: number[];
  lang: string;
  /** Recipients or chat ids, one per line (or separated by commas). */
  recipients: string;
  chats: string;
  url: string;
  /** A new token or secret; '' keeps the stored one (write-only, contracts decision 2). */
  token: string;
  secret: string;
  /** The webhook's stored secret is to be removed. */
  removeSecret: boolean;
}

export function draftOf(channel: Channel, setup: AnySetup | null, lang: string): SetupDraft {
  const s = setup as Partial<InAppSetupWire & MailSetupWire & BotSetupWire & WebhookSetupWire> | null;
  return {
    n: s?.n ?? '',
    on: (s?.on ?? 1) === 1,
    k: s?.k ?? 31,
    users: s?.users ?? [],
    lang: s?.lang ?? lang,
    recipients: (s?.recipients ?? []).join('\n'),
    chats: (s?.chats ?? []).join('\n'),
    url: s?.url ?? (channel === 'bot' ? DEFAULT_BOT_BASE_URL : ''),
    token: '',
    secret: '',
    removeSecret: false,
  };
}

/** A list typed as lines or comma-separated values: trimmed, no empty entries. */
export function splitList(text: string): string[] {
  return text
    .split(/[\n,;]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export type DraftField = 'n' | 'k' | 'users' | 'recipients' | 'chats' | 'url' | 'token' | 'secret';

/**
 * The core contract a save is checked with before it is sent: the POST body of a new set-up, the PUT
 * body of a saved one (which keeps a stored token or secret that is not sent again).
 */
export function setupSchema(channel: Channel, saved: AnySetup | null): CoreSchema {
  if (channel === 'inapp') return saved ? inAppSetupUpdateBody : inAppSetupBody;
  if (channel === 'mail') return saved ? mailSetupUpdateBody : mailSetupBody;
  if (channel === 'bot') return saved ? botSetupUpdateBody : botSetupBody;
  return saved ? webhookSetupUpdateBody : webhookSetupBody;
}

/** The body of POST (new), PUT (saved) or the test: the fields of the channel. */
export function setupBody(channel: Channel, draft: SetupDraft): Record<string, unknown> {
  const common = { n: draft.n.trim(), on: draft.on ? 1 : 0, k: draft.k };
  if (channel === 'inapp') return { ...common, users: draft.users };
  if (channel === 'mail') return { ...common, lang: draft.lang, recipients: splitList(draft.recipients) };
  if (channel === 'bot')
    return {
      ...common,
      lang: draft.lang,
      url: draft.url.trim(),
      chats: splitList(draft.chats),
      ...(draft.token.trim() === '' ? {} : { token: draft.token.trim() }),
    };
  return {
    ...common,
    lang: draft.lang,
    url: draft.url.trim(),
    ...(draft.secret !== '' ? { secret: draft.secret } : draft.removeSecret ? { secret: '' } : {}),
  };
}

/** The test body: the form's fields, with the saved set-up's id so its stored token or secret is used. */
export function testBody(
  channel: Channel,
  draft: SetupDraft,
  saved: AnySetup | null,
): Record<string, unknown> {
  const body = setupBody(channel, draft);
  if (body.n === '') delete body.n;
  return saved ? { ...body, id: saved.id } : body;
}

/** A server error's field path onto the form's field ('body.recipients.2' → recipients). */
export function serverFieldOf(path: readonly string[]): DraftField | null {
  const head = path[0];
  if (head === 'n' || head === 'k' || head === 'recipients' || head === 'chats' || head === 'url')
    return head;
  if (head === 'token' || head === 'secret' || head === 'users') return head;
  return null;
}
