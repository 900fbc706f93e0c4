import { randomUUID } from 'node:crypto';
import {
  type BotSetupBody,
  type BotSetupTestBody,
  type BotSetupUpdateBody,
  CHANNEL_SETUPS_MAX,
  type ChannelEventSnapshot,
  type DeliveriesQuery,
  type MailSetupBody,
  type MailSetupTestBody,
  type MailSetupUpdateBody,
  type NotificationChannel,
  testKindOf,
  type WebhookSetupBody,
  type WebhookSetupTestBody,
  type WebhookSetupUpdateBody,
} from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput, notFound } from '../../http/errors.js';
import { type Translate, translator } from '../../i18n/translator.js';
import { urlAllowed } from '../../outbound/policy.js';
import { storedSettings } from '../user/settings.js';
import {
  botToWire,
  type ChannelConfig,
  configOf,
  deliveryToWire,
  mailToWire,
  webhookToWire,
} from './mappers.js';
import {
  MAIL_NOT_CONFIGURED,
  SETUP_DELETED,
  type SendResult,
  sendBot,
  sendMail,
  sendWebhook,
  wordedFailure,
} from './senders.js';
import { deliveryWorker, ERROR_MAX } from './worker.js';

/**
 * The fleet's e-mail, bot and webhook set-ups and their delivery log (the route
 * decisions are in core contracts/notification-channels.ts). Every call: admin or viewNotification
 * (`fleet.settings`), only the fleet's own set-ups.
 */

const SETUP_NOT_FOUND = 'Notification set-up not found';

/** The caller's translate function (the language of their settings), for the texts they read. */
async function readerTranslator(ctx: AppContext, actor: Actor): Promise<Translate> {
  return translator((await storedSettings(ctx, actor.userId)).lang);
}

/**
 * A webhook or bot URL the outbound policy (`FLEETKEEP_OUTBOUND_ALLOW`, outbound/policy.ts) refuses:
 * 400 on `url` before anything is written. A name is checked again on its addresses at every connect.
 */
async function refuseInside(ctx: AppContext, actor: Actor, url: string | undefined): Promise<void> {
  if (url === undefined || urlAllowed(ctx.config.outboundAllow, url)) return;
  const t = await readerTranslator(ctx, actor);
  throw invalidInput([{ field: 'body.url', message: t('notify.failure.refused') }]);
}

/** A send's result as its caller reads it: a failure short of an HTTP answer in their language. */
function worded(result: { ok: boolean; reason?: string }, t: Translate) {
  return result.reason === undefined
    ? { ok: result.ok }
    : { ok: result.ok, reason: wordedFailure(result.reason, t) };
}

/** A set-up's columns as the writers set them. */
interface SetupFields {
  name?: string;
  enabled?: number;
  kinds?: number;
  lang?: string | null;
  config?: Partial<ChannelConfig>;
  /** undefined: keep; null: remove. */
  secret?: string | null;
}

async function setupRow(ctx: AppContext, fleetId: number, channel: NotificationChannel, id: number) {
  const row = await ctx.db.kysely
    .selectFrom('channel_setups')
    .selectAll()
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .where('channel', '=', channel)
    .executeTakeFirst();
  if (!row) throw notFound(SETUP_NOT_FOUND);
  return row;
}

async function listRows(ctx: AppContext, actor: Actor, fleetId: number, channel: NotificationChannel) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  return ctx.db.kysely
    .selectFrom('channel_setups')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('channel', '=', channel)
    .orderBy('id')
    .execute();
}

async function createRow(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  channel: NotificationChannel,
  fields: Required<Omit<SetupFields, 'config'>> & { config: Partial<ChannelConfig> },
) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  const t = now();
  return unitOfWork(ctx, async (trx) => {
    const count = await trx
      .selectFrom('channel_setups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('fleet_id', '=', fleetId)
      .where('channel', '=', channel)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= CHANNEL_SETUPS_MAX)
      throw conflict(`A fleet has at most ${CHANNEL_SETUPS_MAX} set-ups of a channel`);
    return trx
      .insertInto('channel_setups')
      .values({
        fleet_id: fleetId,
        channel,
        name: fields.name,
        enabled: fields.enabled,
        kinds: fields.kinds,
        lang: fields.lang,
        config: JSON.stringify(fields.config),
        secret: fields.secret,
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

async function updateRow(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  channel: NotificationChannel,
  id: number,
  fields: SetupFields,
) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  const before = await setupRow(ctx, fleetId, channel, id);
  const config = fields.config ? { ...configOf(before), ...fields.config } : undefined;
  const row = await ctx.db.kysely
    .updateTable('channel_setups')
    .set({
      ...(fields.name === undefined ? {} : { name: fields.name }),
      ...(fields.enabled === undefined ? {} : { enabled: fields.enabled }),
      ...(fields.kinds === undefined ? {} : { kinds: fields.kinds }),
      ...(fields.lang === undefined ? {} : { lang: fields.lang }),
      ...(config === undefined ? {} : { config: JSON.stringify(pick(channel, config)) }),
      ...(fields.secret === undefined ? {} : { secret: fields.secret }),
      updated_at: now(),
    })
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .where('channel', '=', channel)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound(SETUP_NOT_FOUND);
  return row;
}

/** The config keys each channel keeps. */
function pick(channel: NotificationChannel, c: Partial<ChannelConfig>): Partial<ChannelConfig> {
  if (channel === 'mail') return { recipients: c.recipients ?? [] };
  if (channel === 'bot') return { url: c.url ?? '', chats: c.chats ?? [] };
  return { url: c.url ?? '' };
}

/** Deletes a set-up; its deliveries still waiting are given up (the log keeps them, and what was sent). */
export async function deleteSetup(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  channel: NotificationChannel,
  id: number,
) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  await unitOfWork(ctx, async (trx) => {
    const gone = await trx
      .deleteFrom('channel_setups')
      .where('id', '=', id)
      .where('fleet_id', '=', fleetId)
      .where('channel', '=', channel)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw notFound(SETUP_NOT_FOUND);
    await trx
      .updateTable('notification_deliveries')
      .set({ status: 'failed', next_at: null, error: SETUP_DELETED })
      .where('fleet_id', '=', fleetId)
      .where('channel', '=', channel)
      .where('setup_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  });
  return { error: 0 as const };
}

// --- e-mail ---

const unique = (list: readonly string[]) => [...new Set(list)];

export async function listMails(ctx: AppContext, actor: Actor, fleetId: number) {
  return { mails: (await listRows(ctx, actor, fleetId, 'mail')).map(mailToWire) };
}

export async function createMail(ctx: AppContext, actor: Actor, fleetId: number, b: MailSetupBody) {
  return mailToWire(
    await createRow(ctx, actor, fleetId, 'mail', {
      name: b.n,
      enabled: b.on,
      kinds: b.k,
      lang: b.lang,
      config: { recipients: unique(b.recipients) },
      secret: null,
    }),
  );
}

export async function updateMail(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  b: MailSetupUpdateBody,
) {
  return mailToWire(
    await updateRow(ctx, actor, fleetId, 'mail', id, {
      name: b.n,
      enabled: b.on,
      kinds: b.k,
      lang: b.lang,
      config: b.recipients === undefined ? undefined : { recipients: unique(b.recipients) },
    }),
  );
}

// --- bots ---

export async function listBots(ctx: AppContext, actor: Actor, fleetId: number) {
  return { bots: (await listRows(ctx, actor, fleetId, 'bot')).map(botToWire) };
}

export async function createBot(ctx: AppContext, actor: Actor, fleetId: number, b: BotSetupBody) {
  await refuseInside(ctx, actor, b.url);
  return botToWire(
    await createRow(ctx, actor, fleetId, 'bot', {
      name: b.n,
      enabled: b.on,
      kinds: b.k,
      lang: b.lang,
      config: { url: b.url, chats: unique(b.chats) },
      secret: b.token,
    }),
  );
}

export async function updateBot(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  b: BotSetupUpdateBody,
) {
  await refuseInside(ctx, actor, b.url);
  const config: Partial<ChannelConfig> = {
    ...(b.url === undefined ? {} : { url: b.url }),
    ...(b.chats === undefined ? {} : { chats: unique(b.chats) }),
  };
  return botToWire(
    await updateRow(ctx, actor, fleetId, 'bot', id, {
      name: b.n,
      enabled: b.on,
      kinds: b.k,
      lang: b.lang,
      config: Object.keys(config).length ? config : undefined,
      secret: b.token,
    }),
  );
}

// --- webhooks ---

export async function listWebhooks(ctx: AppContext, actor: Actor, fleetId: number) {
  return { webhooks: (await listRows(ctx, actor, fleetId, 'webhook')).map(webhookToWire) };
}

export async function createWebhook(ctx: AppContext, actor: Actor, fleetId: number, b: WebhookSetupBody) {
  await refuseInside(ctx, actor, b.url);
  return webhookToWire(
    await createRow(ctx, actor, fleetId, 'webhook', {
      name: b.n,
      enabled: b.on,
      kinds: b.k,
      lang: b.lang ?? 'en',
      config: { url: b.url },
      secret: b.secret ? b.secret : null,
    }),
  );
}

export async function updateWebhook(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  b: WebhookSetupUpdateBody,
) {
  await refuseInside(ctx, actor, b.url);
  return webhookToWire(
    await updateRow(ctx, actor, fleetId, 'webhook', id, {
      name: b.n,
      enabled: b.on,
      kinds: b.k,
      lang: b.lang,
      config: b.url === undefined ? undefined : { url: b.url },
      secret: b.secret === undefined ? undefined : b.secret || null,
    }),
  );
}

// --- "send test" ---

/** An event naming no service, of the set-up's lowest kind, worded in `lang`. */
async function testSnapshot(ctx: AppContext, fleetId: number, kinds: number, lang: string) {
  const fleet = await ctx.db.kysely
    .selectFrom('fleets')
    .select(['id', 'name', 'tz', 'cur', 'ms'])
    .where('id', '=', fleetId)
    .executeTakeFirstOrThrow();
  const t = translator(lang);
  const kind = testKindOf(kinds);
  const snapshot: ChannelEventSnapshot = {
    eventId: randomUUID(),
    type: 'test',
    kind,
    at: now(),
    fleet: { id: fleet.id, name: fleet.name, tz: fleet.tz, cur: fleet.cur, ms: fleet.ms },
    service: {
      id: 0,
      name: t('notify.test.service'),
      f: kind,
      plannedDate: null,
      limitMileage: null,
      limitEngineHours: null,
      cost: null,
    },
    object: { type: 'u', id: 0, name: t('notify.test.object') },
  };
  return snapshot;
}

/** The secret a test uses: the one sent, else the saved set-up's. */
async function savedSecret(
  ctx: AppContext,
  fleetId: number,
  channel: NotificationChannel,
  id: number | undefined,
): Promise<string | null> {
  if (id === undefined) return null;
  return (await setupRow(ctx, fleetId, channel, id)).secret;
}

/**
 * Logs a "send test" in the delivery log: one row per recipient, `test` 1,
 * sent or failed at once (never retried), under the saved set-up when the form is one (else set-up 0).
 */
async function logTest(
  ctx: AppContext,
  fleetId: number,
  channel: NotificationChannel,
  form: { id?: number; n?: string },
  snapshot: ChannelEventSnapshot,
  results: { recipient: string; result: SendResult }[],
) {
  const saved =
    form.id === undefined
      ? undefined
      : await ctx.db.kysely
          .selectFrom('channel_setups')
          .select(['id', 'name'])
          .where('id', '=', form.id)
          .where('fleet_id', '=', fleetId)
          .where('channel', '=', channel)
          .executeTakeFirst();
  const t = now();
  await ctx.db.kysely
    .insertInto('notification_deliveries')
    .values(
      results.map(({ recipient, result }) => ({
        fleet_id: fleetId,
        channel,
        setup_id: saved?.id ?? 0,
        setup_name: form.n ?? saved?.name ?? '',
        event_id: snapshot.eventId,
        kind: snapshot.kind,
        service_id: null,
        snapshot: JSON.stringify(snapshot),
        status: result.ok ? 'sent' : 'failed',
        attempts: 1,
        next_at: null,
        last_at: t,
        error: result.ok ? null : (result.reason ?? 'Failed').slice(0, ERROR_MAX),
        created_at: t,
        recipient,
        test: 1,
      })),
    )
    .execute();
}

/**
 * Several recipients' results as one reply: ok when all were; the failures named (`named`: the sender's
 * reason names the recipient already, as a bot's does).
 */
function overall(results: { recipient: string; result: SendResult }[], named = false) {
  const failed = results.filter((r) => !r.result.ok);
  if (failed.length === 0) return { ok: true };
  return {
    ok: false,
    reason: failed
      .map((f) => (f.recipient && !named ? `${f.recipient}: ${f.result.reason}` : f.result.reason))
      .join('; '),
  };
}

/** A test mail: one message per recipient (each sees only its own address), each logged. */
export async function testMail(ctx: AppContext, actor: Actor, fleetId: number, b: MailSetupTestBody) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  if (!ctx.config.smtpUrl) throw conflict(MAIL_NOT_CONFIGURED);
  const snapshot = await testSnapshot(ctx, fleetId, b.k, b.lang);
  const results: { recipient: string; result: SendResult }[] = [];
  for (const recipient of unique(b.recipients))
    results.push({ recipient, result: await sendMail(ctx.config, [recipient], snapshot, b.lang) });
  await logTest(ctx, fleetId, 'mail', b, snapshot, results);
  if (results.length === 1) {
    const { ok, reason } = results[0]!.result;
    return reason === undefined ? { ok } : { ok, reason };
  }
  return overall(results);
}

/** A test message to each chat, each logged. */
export async function testBot(ctx: AppContext, actor: Actor, fleetId: number, b: BotSetupTestBody) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  const token = b.token ?? (await savedSecret(ctx, fleetId, 'bot', b.id));
  if (!token) throw invalidInput([{ field: 'body.token', message: 'Required' }]);
  const snapshot = await testSnapshot(ctx, fleetId, b.k, b.lang);
  const results: { recipient: string; result: SendResult }[] = [];
  for (const chat of unique(b.chats))
    results.push({
      recipient: chat,
      result: await sendBot(ctx.config, { url: b.url, token, chats: [chat], lang: b.lang }, snapshot),
    });
  await logTest(ctx, fleetId, 'bot', b, snapshot, results);
  return worded(
    results.length === 1 ? results[0]!.result : overall(results, true),
    await readerTranslator(ctx, actor),
  );
}

export async function testWebhook(ctx: AppContext, actor: Actor, fleetId: number, b: WebhookSetupTestBody) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  const secret = b.secret === undefined ? await savedSecret(ctx, fleetId, 'webhook', b.id) : b.secret || null;
  const lang = b.lang ?? 'en';
  const snapshot = await testSnapshot(ctx, fleetId, b.k, lang);
  const result = await sendWebhook(ctx.config, { url: b.url, secret, lang }, snapshot, 'test');
  await logTest(ctx, fleetId, 'webhook', b, snapshot, [{ recipient: '', result }]);
  return worded(result, await readerTranslator(ctx, actor));
}

// --- the delivery log ---

export async function listDeliveries(ctx: AppContext, actor: Actor, fleetId: number, q: DeliveriesQuery) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  let query = ctx.db.kysely.selectFrom('notification_deliveries').selectAll().where('fleet_id', '=', fleetId);
  if (q.channel) query = query.where('channel', '=', q.channel);
  if (q.status) query = query.where('status', '=', q.status);
  const rows = await query.orderBy('id', 'desc').limit(q.limit).execute();
  const t = await readerTranslator(ctx, actor);
  return { deliveries: rows.map((row) => deliveryToWire(row, t)) };
}

/**
 * Retries a failed delivery by hand: pending and
 * due now, its attempts kept, so the worker tries it once more (core `retryDelay` has none left after the
 * last attempt: a failure gives it up again). 404 for another fleet's or an unknown delivery; 409 for
 * one that is not failed, or a test.
 */
export async function retryDelivery(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'fleet.settings');
  const row = await ctx.db.kysely
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!row) throw notFound('Delivery not found');
  if (row.test === 1) throw conflict('A test is not retried: send the test again');
  if (row.status !== 'failed') throw conflict('Only a failed delivery can be retried');
  const updated = await ctx.db.kysely
    .updateTable('notification_deliveries')
    .set({ status: 'pending', next_at: now() })
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .where('status', '=', 'failed')
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw conflict('Only a failed delivery can be retried');
  deliveryWorker(ctx).wake();
  return deliveryToWire(updated, await readerTranslator(ctx, actor));
}
