import { type ChannelEventSnapshot, DELIVERY_ATTEMPTS_MAX, retryDelay } from '@fleetkeep/core';
import { sql } from 'kysely';
import { type AppContext, now } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { Poller, perContext } from '../../jobs/poller.js';
import { configOf, type DeliveryRow, recipientsOf } from './mappers.js';
import {
  deliveryMessageId,
  SETUP_DELETED,
  type SendResult,
  sendBot,
  sendMail,
  sendWebhook,
} from './senders.js';

/**
 * The delivery worker: started with the server,
 * stopped on close, woken after the channels consumer committed new deliveries and every
 * `DELIVERY_POLL_MS`. It claims due pending deliveries (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so
 * several instances share the queue without sending one twice; SQLite has one instance), pushing their
 * `next_at` by the lease and counting the attempt in the claim's own transaction, then sends each and
 * records sent, or failed with the error text and the next try (core `retryDelay`: 1 min, 5 min,
 * 30 min, 2 h, then given up). A process that dies mid-send leaves the row pending: it is tried again
 * when the lease has run out.
 */

/** How often the worker looks for due deliveries without a wake-up. */
export const DELIVERY_POLL_MS = 15_000;
/** Deliveries claimed per round. */
export const DELIVERY_CLAIM_BATCH = 20;
/**
 * How long a claimed delivery is left to its sender before another run may try it again: longer than
 * any one send (a bot set-up with many chats, each with the HTTP timeout).
 */
export const DELIVERY_LEASE_SECONDS = 15 * 60;
/** Characters of an error kept in the log. */
export const ERROR_MAX = 1000;
/** The last error of a delivery given up because its recipient left the set-up while it waited. */
export const RECIPIENT_REMOVED = 'The recipient was removed from the set-up';

export class DeliveryWorker extends Poller {
  constructor(ctx: AppContext) {
    super(ctx, { name: 'notification deliveries', everyMs: DELIVERY_POLL_MS, batch: DELIVERY_CLAIM_BATCH });
  }

  /** Claims up to a batch of due deliveries, sends them, records each result; returns how many. */
  protected async round(): Promise<number> {
    const claimed = await this.claim();
    for (const row of claimed) {
      if (this.closed) break;
      let result: SendResult;
      try {
        result = await this.send(row);
      } catch (err) {
        result = { ok: false, reason: err instanceof Error ? err.message : String(err) };
      }
      await this.record(row, result);
    }
    return claimed.length;
  }

  private async claim(): Promise<DeliveryRow[]> {
    const { ctx } = this;
    const t = now();
    return unitOfWork(ctx, async (trx) => {
      const rows = await ctx.db.ops
        .forUpdateSkipLocked(
          trx
            .selectFrom('notification_deliveries')
            .selectAll()
            .where('status', '=', 'pending')
            .where('next_at', '<=', t)
            .orderBy('next_at')
            .orderBy('id')
            .limit(DELIVERY_CLAIM_BATCH),
        )
        .execute();
      if (rows.length === 0) return [];
      await trx
        .updateTable('notification_deliveries')
        .set({ next_at: t + DELIVERY_LEASE_SECONDS, attempts: sql<number>`attempts + 1`, last_at: t })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      return rows.map((r) => ({ ...r, attempts: r.attempts + 1, last_at: t }));
    });
  }

  private async send(row: DeliveryRow): Promise<SendResult> {
    const setup = await this.ctx.db.kysely
      .selectFrom('channel_setups')
      .selectAll()
      .where('id', '=', row.setup_id)
      .where('fleet_id', '=', row.fleet_id)
      .executeTakeFirst();
    // Nothing to retry for: the set-up is gone or switched off since the event was queued.
    if (!setup) return { ok: false, reason: SETUP_DELETED, final: true };
    if (setup.enabled !== 1) return { ok: false, reason: 'The set-up was switched off', final: true };
    const snapshot = JSON.parse(row.snapshot) as ChannelEventSnapshot;
    const c = configOf(setup);
    const { config } = this.ctx;
    const lang = setup.lang ?? 'en';
    // One recipient per delivery (migration 019); '' on rows queued before it: all of the set-up's.
    const to = (all: string[]) => (row.recipient === '' ? all : [row.recipient]);
    if (row.recipient !== '' && !recipientsOf(setup).includes(row.recipient))
      return { ok: false, reason: RECIPIENT_REMOVED, final: true };
    switch (row.channel) {
      case 'mail':
        return sendMail(
          config,
          to(c.recipients),
          snapshot,
          lang,
          deliveryMessageId(config.publicUrl, row.fleet_id, row.id),
        );
      case 'bot':
        return sendBot(config, { url: c.url, token: setup.secret ?? '', chats: to(c.chats), lang }, snapshot);
      case 'webhook':
        return sendWebhook(config, { url: c.url, secret: setup.secret, lang }, snapshot, row.id);
      default:
        return { ok: false, reason: `Unknown channel ${row.channel}` };
    }
  }

  /** Sent; or failed: retried after the backoff, or given up after the last attempt. */
  private async record(row: DeliveryRow, result: SendResult): Promise<void> {
    const t = now();
    const delay = result.ok || row.attempts >= DELIVERY_ATTEMPTS_MAX ? null : retryDelay(row.attempts);
    const gone = !result.ok && result.final === true;
    await this.ctx.db.kysely
      .updateTable('notification_deliveries')
      .set(
        result.ok
          ? { status: 'sent', next_at: null, error: null, last_at: t }
          : {
              status: delay === null || gone ? 'failed' : 'pending',
              next_at: delay === null || gone ? null : t + delay,
              error: (result.reason ?? 'Failed').slice(0, ERROR_MAX),
              last_at: t,
            },
      )
      .where('id', '=', row.id)
      // Only the claim that is still current records (a lease that ran out was claimed again).
      .where('attempts', '=', row.attempts)
      .where('status', '=', 'pending')
      .execute();
  }
}

/** The instance's delivery worker (made on first use). */
export const deliveryWorker = perContext((ctx) => new DeliveryWorker(ctx));

/** Starts the delivery worker of a server instance (server.ts); `close()` stops it. */
export function startDeliveryWorker(ctx: AppContext): DeliveryWorker {
  const w = deliveryWorker(ctx);
  w.start();
  return w;
}
