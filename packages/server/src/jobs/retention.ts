import { type AppContext, DAY, now } from '../context.js';

/** Ingest-log rows are kept this long: enough to diagnose a device, bounded against unknown senders. */
export const INGEST_LOG_DAYS = 30;
const EVERY_MS = 60 * 60 * 1000;

/** Deletes expired ingest-log rows; idempotent, so several instances may run it. */
export async function pruneIngestLog(ctx: AppContext, at: number = now()): Promise<number> {
  const res = await ctx.db.kysely
    .deleteFrom('ingest_log')
    .where('received_at', '<', at - INGEST_LOG_DAYS * DAY)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Runs the pruning at start and then hourly; `stop()` ends it. */
export function startRetention(ctx: AppContext): { stop(): void } {
  const run = () =>
    void pruneIngestLog(ctx).catch((err) => ctx.log.warn({ err }, 'ingest log pruning failed'));
  run();
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
