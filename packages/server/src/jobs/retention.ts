import { type AppContext, DAY, now } from '../context.js';
import { orderColumn } from '../events/outbox.js';
import { pruneInspections } from './inspection-retention.js';

/** Ingest-log rows are kept this long: enough to diagnose a device, bounded against unknown senders. */
export const INGEST_LOG_DAYS = 30;
/** Domain events are kept this long after they are recorded (as the ingest log), once consumed. */
export const DOMAIN_EVENT_DAYS = 30;
/**
 * Deliveries of e-mails, bot messages and webhooks (modules/notification-channels) stay in the fleet's
 * delivery log this long once sent or given up; pending ones stay
 * until they are settled, however old.
 */
export const DELIVERY_LOG_DAYS = 30;
const EVERY_MS = 60 * 60 * 1000;

/** Deletes expired ingest-log rows; idempotent, so several instances may run it. */
export async function pruneIngestLog(ctx: AppContext, at: number = now()): Promise<number> {
  const res = await ctx.db.kysely
    .deleteFrom('ingest_log')
    .where('received_at', '<', at - INGEST_LOG_DAYS * DAY)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Deletes domain events (events/outbox.ts) older than 30 days that are published and handled by every
 * consumer that has a cursor: a consumer that lags keeps what it has not seen yet. Idempotent.
 *
 * Rows are recorded in id order and their time grows with it, so the old ones are those before the
 * first kept id: found by walking the primary key over the rows that go anyway (no index on the time,
 * which every insert would pay for).
 */
export async function pruneDomainEvents(ctx: AppContext, at: number = now()): Promise<number> {
  const db = ctx.db.kysely;
  const order = orderColumn(ctx);
  const cutoff = at - DOMAIN_EVENT_DAYS * DAY;
  const slowest = await db
    .selectFrom('event_consumers')
    .select((eb) => eb.fn.min('last_seq').as('n'))
    .executeTakeFirst();
  const firstKept = await db
    .selectFrom('domain_events')
    .select('id')
    .where('created_at', '>=', cutoff)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  let query = db.deleteFrom('domain_events').where('created_at', '<', cutoff);
  if (firstKept) query = query.where('id', '<', firstKept.id);
  // Published: numbered on PostgreSQL (on SQLite every committed row is).
  if (order === 'seq') query = query.where('seq', 'is not', null);
  if (slowest?.n !== null && slowest?.n !== undefined) query = query.where(order, '<=', Number(slowest.n));
  const res = await query.executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Deletes sent and failed deliveries (tests included) queued more than `DELIVERY_LOG_DAYS` ago; pending
 * ones are kept. As for the domain events, rows are written in id order with growing times, so the old
 * ones are those before the first kept id (no index on the time). Idempotent.
 */
export async function pruneDeliveries(ctx: AppContext, at: number = now()): Promise<number> {
  const db = ctx.db.kysely;
  const cutoff = at - DELIVERY_LOG_DAYS * DAY;
  const firstKept = await db
    .selectFrom('notification_deliveries')
    .select('id')
    .where('created_at', '>=', cutoff)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  let query = db
    .deleteFrom('notification_deliveries')
    .where('created_at', '<', cutoff)
    .where('status', 'in', ['sent', 'failed']);
  if (firstKept) query = query.where('id', '<', firstKept.id);
  const res = await query.executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Runs the pruning at start and then hourly; `stop()` ends it. */
export function startRetention(ctx: AppContext): { stop(): void } {
  const run = () => {
    void pruneIngestLog(ctx).catch((err) => ctx.log.warn({ err }, 'ingest log pruning failed'));
    void pruneDomainEvents(ctx).catch((err) => ctx.log.warn({ err }, 'domain event pruning failed'));
    void pruneDeliveries(ctx).catch((err) => ctx.log.warn({ err }, 'delivery log pruning failed'));
    void pruneInspections(ctx).catch((err) => ctx.log.warn({ err }, 'inspection retention failed'));
  };
  run();
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
