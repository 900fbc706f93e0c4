import {
  type BotSetupWire,
  CHANNEL_URL_MAX,
  DEFAULT_BOT_BASE_URL,
  type InAppSetupWire,
  Limits,
  type MailSetupWire,
  WEBHOOK_SECRET_MIN,
  type WebhookSetupWire,
} from '@fleetkeep/core';

/**
 * The fleet's notification set-ups (issue 11 item 2; PRODUCT.md "Notifications"; core
 * contracts/notifications.ts for in-app, contracts/notification-channels.ts for e-mail, bot and
 * webhook): one draft for every channel, its checks, and the bodies the routes take. Pure.
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
export type Problem = 'required' | 'tooLong' | 'tooShort' | 'invalid';

/** What the form checks before sending; the server checks everything again (its errors map back). */
export function draftProblems(
  channel: Channel,
  draft: SetupDraft,
  saved: AnySetup | null,
): Partial<Record<DraftField, Problem>> {
  const out: Partial<Record<DraftField, Problem>> = {};
  const name = draft.n.trim();
  if (name === '') out.n = 'required';
  else if (name.length > Limits.stringMax) out.n = 'tooLong';
  if ((draft.k & 31) === 0) out.k = 'required';
  if (channel === 'mail') {
    const list = splitList(draft.recipients);
    if (list.length === 0) out.recipients = 'required';
    else if (list.some((r) => !/^[^\s@]+@[^\s@]+$/.test(r))) out.recipients = 'invalid';
  }
  if (channel === 'bot') {
    if (splitList(draft.chats).length === 0) out.chats = 'required';
    const tokenSet = (saved as BotSetupWire | null)?.token_set === 1;
    if (draft.token.trim() === '' && !tokenSet) out.token = 'required';
  }
  if (channel === 'bot' || channel === 'webhook') {
    const url = draft.url.trim();
    if (url === '') out.url = 'required';
    else if (url.length > CHANNEL_URL_MAX || !/^https?:\/\/[^\s/]+/.test(url)) out.url = 'invalid';
  }
  if (channel === 'webhook' && draft.secret !== '' && draft.secret.length < WEBHOOK_SECRET_MIN)
    out.secret = 'tooShort';
  return out;
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
