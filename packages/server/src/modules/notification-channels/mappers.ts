import {
  type BotSetupWire,
  DEFAULT_BOT_BASE_URL,
  type DeliveryStatus,
  type DeliveryWire,
  type MailSetupWire,
  type NotificationChannel,
  secretTail,
  type WebhookSetupWire,
} from '@fleetkeep/core';
import type { Selectable } from 'kysely';
import type { ChannelSetupTable, NotificationDeliveryTable } from '../../db/schema.js';
import type { Translate } from '../../i18n/translator.js';
import { wordedFailure } from './senders.js';

/** Rows → the wire types of core contracts/notification-channels.ts. */

export type ChannelSetupRow = Selectable<ChannelSetupTable>;
export type DeliveryRow = Selectable<NotificationDeliveryTable>;

/** A set-up's `config` JSON, read leniently. */
export interface ChannelConfig {
  recipients: string[];
  url: string;
  chats: string[];
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

export function configOf(row: Pick<ChannelSetupRow, 'config'>): ChannelConfig {
  let v: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.config);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      v = parsed as Record<string, unknown>;
  } catch {
    // leave the defaults
  }
  return {
    recipients: strings(v.recipients),
    url: typeof v.url === 'string' ? v.url : '',
    chats: strings(v.chats),
  };
}

/** Whom one set-up's delivery of an event goes to, one delivery each: '' is the webhook's URL. */
export function recipientsOf(setup: { channel: string; config: string }): string[] {
  const c = configOf(setup);
  if (setup.channel === 'mail') return [...new Set(c.recipients)];
  if (setup.channel === 'bot') return [...new Set(c.chats)];
  return [''];
}

const flagOf = (n: number) => (n ? 1 : 0) as 0 | 1;

export function mailToWire(row: ChannelSetupRow): MailSetupWire {
  return {
    id: row.id,
    n: row.name,
    on: flagOf(row.enabled),
    k: row.kinds,
    lang: row.lang ?? 'en',
    recipients: configOf(row).recipients,
  };
}

export function botToWire(row: ChannelSetupRow): BotSetupWire {
  const c = configOf(row);
  return {
    id: row.id,
    n: row.name,
    on: flagOf(row.enabled),
    k: row.kinds,
    lang: row.lang ?? 'en',
    url: c.url || DEFAULT_BOT_BASE_URL,
    token_set: row.secret ? 1 : 0,
    token_tail: secretTail(row.secret),
    chats: c.chats,
  };
}

export function webhookToWire(row: ChannelSetupRow): WebhookSetupWire {
  return {
    id: row.id,
    n: row.name,
    on: flagOf(row.enabled),
    k: row.kinds,
    url: configOf(row).url,
    lang: row.lang ?? 'en',
    secret_set: row.secret ? 1 : 0,
    secret_tail: secretTail(row.secret),
  };
}

/** A delivery; its failure worded for the reader (`t`). */
export function deliveryToWire(row: DeliveryRow, t: Translate): DeliveryWire {
  const pending = row.status === 'pending';
  return {
    id: row.id,
    tm: Number(row.created_at),
    channel: row.channel as NotificationChannel,
    setup_id: row.setup_id,
    setup_name: row.setup_name,
    event_id: row.event_id,
    kind: row.kind,
    sid: row.service_id,
    attempts: row.attempts,
    status: row.status as DeliveryStatus,
    error: row.error === null ? null : wordedFailure(row.error, t),
    last_tm: row.last_at === null ? null : Number(row.last_at),
    next_tm: pending && row.next_at !== null ? Number(row.next_at) : null,
    recipient: row.recipient,
    test: flagOf(row.test),
  };
}
