// CONTRACT READY
import { z } from 'zod';
import { ALL_CHANNEL_KINDS, LANGUAGES, Limits } from '../constants.js';
import { acceptingReadOnly, flag, id, unixTime } from './common.js';

/**
 * Wire contracts of the notification channels (spec §7 "Notifications and alerts";
 * PRODUCT.md "Notifications"; DESIGN §6 kinds 1/2/4/8/16): e-mail (`mails`, spec §7 names it), messaging
 * bot (`bots`, a Telegram-compatible bot API) and external server (`webhooks`), each configured per fleet
 * under `/api/fleets/{fid}` — GET (list), POST, PUT and DELETE `/{id}`, POST `/test` — and the delivery log
 * `GET /api/fleets/{fid}/deliveries`.
 *
 * Decisions:
 *
 * 1. Who may call: admin or viewNotification on the fleet, need `fleet.settings`, as the in-app set-ups.
 * 2. Secrets are write-only. A bot's `token` and a webhook's `secret` are never sent back: the reply says
 *    whether one is set (`token_set`, `secret_set`) and its last 4 characters (`token_tail`,
 *    `secret_tail`). A PUT without the field keeps the stored value; a webhook's `secret: ''` removes it
 *    (a bot always needs a token). The reply's read-only fields are accepted and ignored on PUT.
 * 3. "Send test" tests the fields sent, saved or not; with `id` of a saved set-up and no token/secret
 *    sent, the stored one is used. It answers the delivery result `{ok, reason?}`; a mail test without
 *    `SMTP_URL` configured answers 409 `{error: 10, reason}` ("Mail is not configured ...").
 * 4. Each service event is delivered once per switched-on set-up whose kinds include its kind and per
 *    recipient: an e-mail set-up sends each address a message of its own, a bot each
 *    chat; the log keeps one row per (channel, set-up, event, recipient) with its attempts, status and
 *    last error. "Send test" sends are logged too (`test: 1`, setup_id 0 for an unsaved form).
 */

/** E-mail recipients one set-up may name. */
export const MAIL_RECIPIENTS_MAX = 50;
/** Length of one e-mail address (RFC 5321 path limit). */
export const EMAIL_MAX = 254;
/** Chat ids one bot set-up may name. */
export const BOT_CHATS_MAX = 50;
/** Length of one chat id (a number, or @channel). */
export const BOT_CHAT_MAX = 64;
/** Length of a bot token. */
export const BOT_TOKEN_MAX = 256;
/** Length of a URL (webhook or bot API base). */
export const CHANNEL_URL_MAX = 2048;
/** Length of a webhook secret. */
export const WEBHOOK_SECRET_MIN = 8;
export const WEBHOOK_SECRET_MAX = 256;
/** Set-ups per fleet and channel. */
export const CHANNEL_SETUPS_MAX = 100;
/** The default bot API base URL. */
export const DEFAULT_BOT_BASE_URL = 'https://api.telegram.org';
/** The most deliveries `GET .../deliveries` returns (and its default). */
export const DELIVERIES_LIST_MAX = 500;
export const DELIVERIES_LIST_DEFAULT = 100;

/** The channels (delivery log `channel`). */
export const NOTIFICATION_CHANNELS = ['mail', 'bot', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
/** A delivery's status: waiting to be sent (or retried), sent, given up. */
export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const kindMask = z
  .number()
  .int()
  .min(1)
  .max(ALL_CHANNEL_KINDS)
  .refine((k) => k > ALL_CHANNEL_KINDS || (k & ~ALL_CHANNEL_KINDS) === 0, 'Unknown notification kind')
  .describe(
    'Kinds (bit mask): 1 due, 2 in progress, 4 overdue, 8 closed, 16 rejected, 32 critical fault code, 512 inspection failed',
  );
const setupName = z.string().trim().min(1).max(Limits.stringMax).describe('Name');
const language = z.enum(LANGUAGES).describe('Language of the texts sent');
const email = z
  .string()
  .trim()
  .max(EMAIL_MAX)
  .pipe(z.email({ message: 'Must be an e-mail address' }));
/** An http or https URL. */
export const channelUrl = z
  .string()
  .trim()
  .min(1)
  .max(CHANNEL_URL_MAX)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'Must be an http or https URL');
const chatId = z
  .string()
  .trim()
  .min(1)
  .max(BOT_CHAT_MAX)
  .regex(/^(-?\d+|@[A-Za-z0-9_]+)$/, 'Must be a chat id (a number) or @channel');
const botToken = z
  .string()
  .trim()
  .min(1)
  .max(BOT_TOKEN_MAX)
  .regex(/^[A-Za-z0-9:_-]+$/, 'Must be a bot token (letters, digits, ":", "_", "-")');
const webhookSecret = z.string().min(WEBHOOK_SECRET_MIN).max(WEBHOOK_SECRET_MAX);

/** The reply of every "send test": the delivery's result. */
export const channelTestReply = z.object({
  ok: z.boolean(),
  reason: z.string().optional().describe('Why it failed (the receiver’s answer or the network error)'),
});
export type ChannelTestReply = z.infer<typeof channelTestReply>;

// --- e-mail: /api/fleets/{fid}/mails ---

const mailFields = z.strictObject({
  n: setupName,
  on: flag.default(1).describe('Switched on'),
  k: kindMask,
  lang: language,
  recipients: z.array(email).min(1).max(MAIL_RECIPIENTS_MAX).describe('E-mail addresses'),
});

/** `POST /api/fleets/{fid}/mails`. */
export const mailSetupBody = mailFields;
export type MailSetupBody = z.output<typeof mailSetupBody>;

/** `PUT /api/fleets/{fid}/mails/{id}`: any of the fields; the set-up as read is accepted. */
export const mailSetupUpdateBody = acceptingReadOnly(mailFields.partial().extend({ on: flag.optional() }), [
  'id',
]);
export type MailSetupUpdateBody = z.output<typeof mailSetupUpdateBody>;

/** `POST /api/fleets/{fid}/mails/test`: the set-up as the form holds it (saved or not). */
export const mailSetupTestBody = mailFields.extend({
  n: setupName.optional(),
  id: id.optional().describe('The saved set-up (ignored: the fields sent are tested)'),
});
export type MailSetupTestBody = z.output<typeof mailSetupTestBody>;

export const mailSetupWire = z.object({
  id,
  n: z.string(),
  on: flag,
  k: z.number().int(),
  lang: z.string(),
  recipients: z.array(z.string()),
});
export type MailSetupWire = z.infer<typeof mailSetupWire>;
export const mailSetupListReply = z.object({ mails: z.array(mailSetupWire) });

// --- messaging bot: /api/fleets/{fid}/bots ---

const botFields = z.strictObject({
  n: setupName,
  on: flag.default(1).describe('Switched on'),
  k: kindMask,
  lang: language,
  url: channelUrl.default(DEFAULT_BOT_BASE_URL).describe('Bot API base URL (Telegram-compatible)'),
  token: botToken.describe('Bot token (write-only)'),
  chats: z.array(chatId).min(1).max(BOT_CHATS_MAX).describe('Chat ids'),
});

/** `POST /api/fleets/{fid}/bots`. */
export const botSetupBody = botFields;
export type BotSetupBody = z.output<typeof botSetupBody>;

/** `PUT /api/fleets/{fid}/bots/{id}`: any of the fields; without `token` the stored one is kept. */
export const botSetupUpdateBody = acceptingReadOnly(
  botFields.partial().extend({ on: flag.optional(), url: channelUrl.optional() }),
  ['id', 'token_set', 'token_tail'],
);
export type BotSetupUpdateBody = z.output<typeof botSetupUpdateBody>;

/** `POST /api/fleets/{fid}/bots/test`: the fields sent; without `token`, the saved set-up's (`id`). */
export const botSetupTestBody = botFields.extend({
  n: setupName.optional(),
  token: botToken.optional(),
  id: id.optional().describe('The saved set-up whose token is used when none is sent'),
  token_set: z.unknown().optional(),
  token_tail: z.unknown().optional(),
});
export type BotSetupTestBody = z.output<typeof botSetupTestBody>;

export const botSetupWire = z.object({
  id,
  n: z.string(),
  on: flag,
  k: z.number().int(),
  lang: z.string(),
  url: z.string(),
  token_set: flag.describe('A token is stored'),
  token_tail: z.string().describe('The token’s last 4 characters ("" when none)'),
  chats: z.array(z.string()),
});
export type BotSetupWire = z.infer<typeof botSetupWire>;
export const botSetupListReply = z.object({ bots: z.array(botSetupWire) });

// --- external server: /api/fleets/{fid}/webhooks ---

const webhookFields = z.strictObject({
  n: setupName,
  on: flag.default(1).describe('Switched on'),
  k: kindMask,
  url: channelUrl.describe('Where the JSON payload is POSTed (http or https)'),
  lang: language
    .optional()
    .describe('Language of the payload’s `text` (subject and body, as the e-mail words it); default en'),
  secret: z
    .union([webhookSecret, z.literal('')])
    .optional()
    .describe('HMAC-SHA256 signing secret (write-only); "" or absent: unsigned'),
});

/** `POST /api/fleets/{fid}/webhooks`. */
export const webhookSetupBody = webhookFields;
export type WebhookSetupBody = z.output<typeof webhookSetupBody>;

/** `PUT /api/fleets/{fid}/webhooks/{id}`: without `secret` the stored one is kept; `""` removes it. */
export const webhookSetupUpdateBody = acceptingReadOnly(
  webhookFields.partial().extend({ on: flag.optional() }),
  ['id', 'secret_set', 'secret_tail'],
);
export type WebhookSetupUpdateBody = z.output<typeof webhookSetupUpdateBody>;

/** `POST /api/fleets/{fid}/webhooks/test`: the fields sent; without `secret`, the saved set-up's (`id`). */
export const webhookSetupTestBody = webhookFields.extend({
  n: setupName.optional(),
  id: id.optional().describe('The saved set-up whose secret is used when none is sent'),
  secret_set: z.unknown().optional(),
  secret_tail: z.unknown().optional(),
});
export type WebhookSetupTestBody = z.output<typeof webhookSetupTestBody>;

export const webhookSetupWire = z.object({
  id,
  n: z.string(),
  on: flag,
  k: z.number().int(),
  url: z.string(),
  lang: z.string(),
  secret_set: flag.describe('A signing secret is stored'),
  secret_tail: z.string().describe('The secret’s last 4 characters ("" when none)'),
});
export type WebhookSetupWire = z.infer<typeof webhookSetupWire>;
export const webhookSetupListReply = z.object({ webhooks: z.array(webhookSetupWire) });

// --- the delivery log: /api/fleets/{fid}/deliveries ---

export const deliveriesQuery = z.object({
  channel: z.enum(NOTIFICATION_CHANNELS).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(DELIVERIES_LIST_MAX).default(DELIVERIES_LIST_DEFAULT),
});
export type DeliveriesQuery = z.output<typeof deliveriesQuery>;

export const deliveryWire = z.object({
  id,
  tm: unixTime.describe('When the delivery was queued (the event was handled), Unix seconds'),
  channel: z.enum(NOTIFICATION_CHANNELS),
  setup_id: z.number().int(),
  setup_name: z.string().describe('The set-up’s name ("" when it was deleted since)'),
  event_id: z.string(),
  kind: z.number().int().describe('Notification kind bit'),
  sid: z.number().int().nullable().describe('Service id'),
  attempts: z.number().int(),
  status: z.enum(DELIVERY_STATUSES),
  error: z.string().nullable().describe('The last failure'),
  last_tm: z.number().int().nullable().describe('The last attempt, Unix seconds'),
  next_tm: z.number().int().nullable().describe('The next try while pending, Unix seconds'),
  recipient: z
    .string()
    .describe('The e-mail address or chat id this delivery goes to ("" for a webhook: its URL)'),
  test: flag.describe('1: a "send test", logged (never retried)'),
});
export type DeliveryWire = z.infer<typeof deliveryWire>;
export const deliveryListReply = z.object({
  deliveries: z.array(deliveryWire).describe('Newest first'),
});
export type DeliveryListReply = z.infer<typeof deliveryListReply>;
