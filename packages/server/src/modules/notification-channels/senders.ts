import { createHmac } from 'node:crypto';
import {
  type ChannelEventSnapshot,
  NotificationKind,
  signatureBase,
  snapshotLink,
  WebhookHeader,
  webhookPayload,
} from '@fleetkeep/core';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import { formatterFor } from '../../i18n/formatter.js';
import type { Translate } from '../../i18n/translator.js';
import { OutboundRefused, postOutbound } from '../../outbound/request.js';

/**
 * Sending one delivery on each channel: the e-mail through `SMTP_URL` (nodemailer),
 * the bot message through a Telegram-compatible API, the external server's signed JSON POST. Each
 * answers `{ok, reason?}`; nothing here touches the database (modules/notification-channels/worker.ts
 * records the result).
 */

/** How long a webhook or bot request may take before it counts as failed. */
export const HTTP_TIMEOUT_MS = 10_000;
/** How long an SMTP exchange may take. */
export const SMTP_TIMEOUT_MS = 30_000;
/** Characters of a receiver's answer kept in a failure text. */
export const REASON_MAX = 300;

export interface SendResult {
  ok: boolean;
  reason?: string;
  /** A failure not worth retrying. */
  final?: boolean;
}

/** The last error of a delivery given up because its set-up was deleted. */
export const SETUP_DELETED = 'The set-up was deleted';

export const MAIL_NOT_CONFIGURED = 'Mail is not configured on this server (SMTP_URL is not set)';

/**
 * A webhook's or bot's failure short of an HTTP answer: the policy refused the address, or it did not
 * connect. The socket's own text (`connect ECONNREFUSED ::1:18999`) is never kept: it would tell a
 * fleet admin which ports answer on the server's network. Stored in English, worded for the reader
 * (`wordedFailure`).
 */
export const OUTBOUND_REFUSED = "Refused by the server's outbound policy";
export const UNREACHABLE = 'Unreachable';
const FAILURE_KEYS: Record<string, string> = {
  [OUTBOUND_REFUSED]: 'notify.failure.refused',
  [UNREACHABLE]: 'notify.failure.unreachable',
};
/** A failure as kept: the failure itself, or a bot's `chat: failure`, several joined by "; ". */
const KEPT_FAILURE = /^((?:-?\d+|@[A-Za-z0-9_]+): )?(.*)$/;

/** A kept failure text in the reader's language (the policy's and the unreachable ones; others as kept). */
export function wordedFailure(text: string, t: Translate): string {
  return text
    .split('; ')
    .map((part) => {
      const [, chat = '', failure = ''] = KEPT_FAILURE.exec(part) ?? [];
      const key = FAILURE_KEYS[failure];
      return key ? `${chat}${t(key)}` : part;
    })
    .join('; ');
}

const clip = (text: string) => (text.length > REASON_MAX ? `${text.slice(0, REASON_MAX)}…` : text);
const failure = (reason: string): SendResult => ({ ok: false, reason: clip(reason) });
const errorText = (err: unknown): string =>
  err instanceof Error
    ? err.name === 'TimeoutError' || err.name === 'AbortError'
      ? `No answer within ${HTTP_TIMEOUT_MS / 1000} s`
      : `${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}`
    : String(err);

/** The `status.*` key naming each kind (the labels of the web's status badges). */
const KIND_KEYS: Record<number, string> = {
  [NotificationKind.upcoming]: 'status.upcoming',
  [NotificationKind.inProgress]: 'status.inProgress',
  [NotificationKind.overdue]: 'status.overdue',
  [NotificationKind.closed]: 'status.closed',
  [NotificationKind.rejected]: 'status.rejected',
  [NotificationKind.criticalFault]: 'notify.fault.kind',
  [NotificationKind.inspectionFailed]: 'inspections.notify.kind',
  [NotificationKind.issueReported]: 'issues.notify.kind',
  [NotificationKind.workOrderAssigned]: 'workOrders.notify.assignedKind',
  [NotificationKind.workOrderCompleted]: 'workOrders.notify.completedKind',
  [NotificationKind.documentExpiring]: 'documents.notify.kind',
  [NotificationKind.treadLow]: 'components.notify.kind',
  [NotificationKind.lowStock]: 'parts.notify.kind',
};

/** A link to the service, or to the site for a test (which names no service). */
export function linkOf(snapshot: ChannelEventSnapshot, publicUrl: string): string {
  const record =
    snapshot.inspection ||
    snapshot.component ||
    snapshot.part ||
    snapshot.workOrder ||
    snapshot.document ||
    snapshot.issue ||
    snapshot.fault;
  return record || snapshot.service.id > 0 ? snapshotLink(snapshot, publicUrl) : publicUrl;
}

/** The message of an inspection with defects (kind 512): the object, the form, defects, worst severity. */
function inspectionMessage(
  snapshot: ChannelEventSnapshot,
  f: ReturnType<typeof formatterFor>,
  publicUrl: string,
) {
  const i = snapshot.inspection!;
  const values = { object: snapshot.object.name, fleet: snapshot.fleet.name, form: i.form };
  return {
    subject: f.t('inspections.notify.subject', values),
    headline: f.t('inspections.notify.headline', values),
    details: [
      f.t('notify.message.fleet', values),
      f.t('inspections.notify.defects', { n: i.defects }),
      f.t('inspections.notify.worst', { severity: f.t(`inspections.severity.${i.worst}`) }),
    ],
    linkText: f.t('inspections.notify.open'),
    link: linkOf(snapshot, publicUrl),
    when: f.dateTime(snapshot.at),
  };
}

/** The message of a tread reading under the threshold (kind 4096): the tyre, its unit and position. */
function treadMessage(snapshot: ChannelEventSnapshot, f: ReturnType<typeof formatterFor>, publicUrl: string) {
  const c = snapshot.component!;
  const mm = (v: number) => `${f.number(v, { decimals: 1 })} mm`;
  const values = {
    serial: c.serial || `#${c.id}`,
    object: snapshot.object.name,
    fleet: snapshot.fleet.name,
    depth: mm(c.depth),
    threshold: mm(c.threshold),
    position: c.position ?? '',
  };
  const details = [f.t('notify.message.fleet', values), f.t('components.notify.depth', values)];
  if (c.position && snapshot.object.name) details.push(f.t('components.notify.mounted', values));
  return {
    subject: f.t('components.notify.subject', values),
    headline: f.t('components.notify.headline', values),
    details,
    linkText: f.t('components.notify.open'),
    link: linkOf(snapshot, publicUrl),
    when: f.dateTime(snapshot.at),
  };
}

/** The message of a part's stock gone low at a location (kind 1024): the part, the place, the stock. */
function lowStockMessage(
  snapshot: ChannelEventSnapshot,
  f: ReturnType<typeof formatterFor>,
  publicUrl: string,
) {
  const p = snapshot.part!;
  const amount = (v: number) => `${f.number(v)}${p.unit ? ` ${p.unit}` : ''}`;
  const values = {
    name: p.name,
    number: p.number,
    location: p.location,
    fleet: snapshot.fleet.name,
    qty: amount(p.qty),
    threshold: amount(p.threshold),
  };
  return {
    subject: f.t('parts.notify.subject', values),
    headline: f.t('parts.notify.headline', values),
    details: [f.t('notify.message.fleet', values), f.t('parts.notify.stock', values)],
    linkText: f.t('parts.notify.open'),
    link: linkOf(snapshot, publicUrl),
    when: f.dateTime(snapshot.at),
  };
}

/** The text of a mail or bot message in `lang`, as lines, spec §9 formats in the fleet's units. */
export function messageOf(snapshot: ChannelEventSnapshot, lang: string, publicUrl: string) {
  const f = formatterFor({ lang, fleet: snapshot.fleet });
  if (snapshot.inspection) return inspectionMessage(snapshot, f, publicUrl);
  if (snapshot.document) {
    // A document nearing its expiry (kind 2048): no service to describe.
    const d = snapshot.document;
    const values = {
      type: d.type === 'custom' ? d.type_name : f.t(`documents.type.${d.type}`),
      object: snapshot.object.name,
      fleet: snapshot.fleet.name,
      date: f.date(d.valid_to),
    };
    const details = [f.t('notify.message.fleet', values)];
    if (d.number) details.push(`${f.t('documents.field.number')}: ${d.number}`);
    return {
      subject: f.t('documents.notify.subject', values),
      headline: f.t('documents.notify.headline', values),
      details,
      linkText: f.t('documents.notify.open'),
      link: linkOf(snapshot, publicUrl),
      when: f.dateTime(snapshot.at),
    };
  }
  if (snapshot.component) return treadMessage(snapshot, f, publicUrl);
  if (snapshot.part) return lowStockMessage(snapshot, f, publicUrl);
  if (snapshot.workOrder) {
    // A work order assigned (kind 128) or completed (kind 256): no service to describe.
    const w = snapshot.workOrder;
    const completed = snapshot.kind === NotificationKind.workOrderCompleted;
    const values = {
      title: w.title,
      object: snapshot.object.name,
      fleet: snapshot.fleet.name,
      assignee: w.assignee,
    };
    const details = [f.t('notify.message.fleet', values)];
    if (w.assignee) details.push(f.t('workOrders.notify.assignee', values));
    if (w.cost > 0) details.push(f.t('notify.message.cost', { value: f.money(w.cost) }));
    if (completed && w.mileage !== null)
      details.push(f.t('workOrders.notify.mileage', { value: f.distance(w.mileage) }));
    if (completed && w.engineHours !== null)
      details.push(f.t('workOrders.notify.engineHours', { value: f.engineHours(w.engineHours) }));
    if (completed && w.downtime !== null)
      details.push(
        f.t('workOrders.notify.downtime', { value: f.number(w.downtime / 3600, { decimals: 1 }) }),
      );
    const which = completed ? 'completed' : 'assigned';
    return {
      subject: f.t(`workOrders.notify.${which}Subject`, values),
      headline: f.t(`workOrders.notify.${which}Headline`, values),
      details,
      linkText: f.t('workOrders.notify.open'),
      link: linkOf(snapshot, publicUrl),
      when: f.dateTime(snapshot.at),
    };
  }
  if (snapshot.issue) {
    // An issue reported (kind 64): the issue of a unit or trailer, no service to describe.
    const i = snapshot.issue;
    const values = {
      title: i.title,
      object: snapshot.object.name,
      fleet: snapshot.fleet.name,
      priority: f.t(`issues.priority.${i.priority}`),
      reporter: i.reporter,
    };
    const details = [f.t('notify.message.fleet', values), f.t('issues.notify.priority', values)];
    if (i.reporter) details.push(f.t('issues.notify.reporter', values));
    if (i.description) details.push(i.description);
    return {
      subject: f.t('issues.notify.subject', values),
      headline: f.t('issues.notify.headline', values),
      details,
      linkText: f.t('issues.notify.open'),
      link: linkOf(snapshot, publicUrl),
      when: f.dateTime(snapshot.at),
    };
  }
  if (snapshot.fault) {
    // A critical fault code of a unit (kind 32): no service to describe.
    const values = { code: snapshot.fault.code, object: snapshot.object.name, fleet: snapshot.fleet.name };
    return {
      subject: f.t('notify.fault.subject', values),
      headline: f.t(snapshot.fault.reopened ? 'notify.fault.reopened' : 'notify.fault.headline', values),
      details: [
        f.t('notify.message.fleet', values),
        f.t('notify.fault.count', { value: snapshot.fault.count }),
      ],
      linkText: f.t('notify.fault.open'),
      link: linkOf(snapshot, publicUrl),
      when: f.dateTime(snapshot.at),
    };
  }
  const s = snapshot.service;
  const values = {
    kind: f.t(KIND_KEYS[snapshot.kind] ?? 'status.upcoming'),
    service: s.name,
    object: snapshot.object.name,
    fleet: snapshot.fleet.name,
  };
  const subject = f.t('notify.mail.subject', values);
  const details: string[] = [f.t('notify.message.fleet', values)];
  if (s.plannedDate !== null) details.push(f.t('notify.message.planned', { date: f.date(s.plannedDate) }));
  if (s.limitMileage !== null)
    details.push(f.t('notify.message.limitMileage', { value: f.distance(s.limitMileage) }));
  if (s.limitEngineHours !== null)
    details.push(f.t('notify.message.limitEngineHours', { value: f.engineHours(s.limitEngineHours) }));
  if (s.cost !== null) details.push(f.t('notify.message.cost', { value: f.money(s.cost) }));
  return {
    subject,
    headline: f.t(s.id > 0 ? 'notify.message.headline' : 'notify.message.test', values),
    details,
    linkText: f.t('notify.message.open'),
    link: linkOf(snapshot, publicUrl),
    when: f.dateTime(snapshot.at),
  };
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** The mail's subject, plain text and HTML (every value escaped). */
export function renderMail(snapshot: ChannelEventSnapshot, lang: string, publicUrl: string) {
  const m = messageOf(snapshot, lang, publicUrl);
  const text = [m.headline, '', ...m.details, m.when, '', `${m.linkText}: ${m.link}`, ''].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<p><strong>${escapeHtml(m.headline)}</strong></p>`,
    `<p>${[...m.details, m.when].map(escapeHtml).join('<br>')}</p>`,
    `<p><a href="${escapeHtml(m.link)}">${escapeHtml(m.linkText)}</a></p>`,
    '</body></html>',
  ].join('\n');
  return { subject: m.subject, text, html };
}

/** The host of PUBLIC_URL ('localhost' when it has none). */
function publicHost(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** `SMTP_FROM`, else `Fleetkeep <fleetkeep@host of PUBLIC_URL>`. */
export function mailFrom(config: Pick<Config, 'smtpFrom' | 'publicUrl'>): string {
  if (config.smtpFrom) return config.smtpFrom;
  return `Fleetkeep <fleetkeep@${publicHost(config.publicUrl)}>`;
}

/**
 * The Message-ID of a queued delivery's mail: the same on every attempt, so that a mail sent again after
 * a crash between send and record (the worker is at least once there) carries the id of the
 * first, and mail stores and clients that drop a repeated Message-ID show it once.
 */
export function deliveryMessageId(publicUrl: string, fleetId: number, deliveryId: number): string {
  return `<delivery.${fleetId}.${deliveryId}@${publicHost(publicUrl)}>`;
}

export async function sendMail(
  config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'publicUrl'>,
  to: readonly string[],
  snapshot: ChannelEventSnapshot,
  lang: string,
  messageId?: string,
): Promise<SendResult> {
  if (!config.smtpUrl) return failure(MAIL_NOT_CONFIGURED);
  const mail = renderMail(snapshot, lang, config.publicUrl);
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({
      from: mailFrom(config),
      to: [...to],
      ...mail,
      ...(messageId ? { messageId } : {}),
    });
    return { ok: true };
  } catch (err) {
    return failure(errorText(err));
  } finally {
    transport.close();
  }
}

/** What a webhook or bot request that got no HTTP answer failed of (never the socket's text). */
function outboundErrorText(err: unknown): string {
  if (err instanceof OutboundRefused) return OUTBOUND_REFUSED;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return errorText(err);
  return UNREACHABLE;
}

/** POSTs JSON under the outbound policy, without following redirects; 2xx is success. */
function postJson(config: OutboundConfig, url: string, body: string, headers: Record<string, string>) {
  return postOutbound(
    config.outboundAllow,
    url,
    body,
    { 'Content-Type': 'application/json', ...headers },
    HTTP_TIMEOUT_MS,
  );
}

/** What a webhook or bot send needs of the configuration. */
export type OutboundConfig = Pick<Config, 'publicUrl' | 'outboundAllow'>;

function httpFailure(r: { status: number; text: string; location: string | null }): SendResult {
  if (r.status >= 300 && r.status < 400)
    return failure(`Redirect not followed: HTTP ${r.status}${r.location ? ` to ${r.location}` : ''}`);
  return failure(`HTTP ${r.status}${r.text ? `: ${r.text}` : ''}`);
}

/** `POST {base}/bot{token}/sendMessage` `{chat_id, text}` to each chat (a Telegram-compatible bot API). */
export async function sendBot(
  config: OutboundConfig,
  setup: { url: string; token: string; chats: readonly string[]; lang: string },
  snapshot: ChannelEventSnapshot,
): Promise<SendResult> {
  const m = messageOf(snapshot, setup.lang, config.publicUrl);
  const text = [m.headline, ...m.details, m.when, m.link].join('\n');
  const endpoint = `${setup.url.replace(/\/+$/, '')}/bot${setup.token}/sendMessage`;
  const failed: string[] = [];
  for (const chat of setup.chats) {
    try {
      const r = await postJson(config, endpoint, JSON.stringify({ chat_id: chat, text }), {});
      let answer: { ok?: unknown; description?: unknown } = {};
      try {
        answer = JSON.parse(r.text) as typeof answer;
      } catch {
        // not JSON: judged by the status alone
      }
      if (r.status < 200 || r.status >= 300) {
        const d = typeof answer.description === 'string' ? answer.description : r.text;
        failed.push(`${chat}: ${httpFailure({ ...r, text: d }).reason}`);
      } else if (answer.ok === false)
        failed.push(`${chat}: ${typeof answer.description === 'string' ? answer.description : 'ok: false'}`);
    } catch (err) {
      failed.push(`${chat}: ${outboundErrorText(err)}`);
    }
  }
  return failed.length ? failure(failed.join('; ')) : { ok: true };
}

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>` (docs/operations.md "Webhooks"). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(signatureBase(timestamp, body)).digest('hex')}`;
}

export async function sendWebhook(
  config: OutboundConfig,
  setup: { url: string; secret: string | null; lang?: string },
  snapshot: ChannelEventSnapshot,
  deliveryId: number | string,
): Promise<SendResult> {
  // The data as PRODUCT.md lists it, plus `text`: the event worded in the set-up's language, as the
  // e-mail and the bot message word it (server i18n; machine names such as `kind_name` stay English).
  const { publicUrl } = config;
  const mail = renderMail(snapshot, setup.lang ?? 'en', publicUrl);
  const payload = {
    ...webhookPayload(snapshot, publicUrl),
    link: linkOf(snapshot, publicUrl),
    text: { lang: setup.lang ?? 'en', subject: mail.subject, body: mail.text },
  };
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    [WebhookHeader.event]: snapshot.type,
    [WebhookHeader.delivery]: String(deliveryId),
  };
  if (setup.secret) {
    const timestamp = Math.floor(Date.now() / 1000);
    headers[WebhookHeader.timestamp] = String(timestamp);
    headers[WebhookHeader.signature] = webhookSignature(setup.secret, timestamp, body);
  }
  try {
    const r = await postJson(config, setup.url, body, headers);
    return r.status >= 200 && r.status < 300 ? { ok: true } : httpFailure(r);
  } catch (err) {
    return failure(outboundErrorText(err));
  }
}
