import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { LoginLimiter } from './auth/rate-limit.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { type Db, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { engineCountersListener } from './engine/index.js';
import { type EventBus, MemoryBus } from './events/bus.js';
import { Outbox } from './events/outbox.js';
import { PgBus } from './events/pg-bus.js';
import { faultIssueConsumer } from './modules/issues/fault-issues.js';
import { channelConsumer } from './modules/notification-channels/consumer.js';
import { startDeliveryWorker } from './modules/notification-channels/worker.js';
import { notificationConsumer } from './modules/notifications/consumer.js';
import { startReportMailScheduler } from './modules/reportmails/scheduler.js';

export interface Server {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

export interface CreateOptions {
  logger?: boolean | object;
}

/** Opens the database, migrates it, starts the event bus and builds the app (not yet listening). */
export async function createServer(config: Config, options: CreateOptions = {}): Promise<Server> {
  const db: Db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'fleetkeep.sqlite'),
  });
  await migrateToLatest(db);
  const bootLog = { warn: console.warn, error: console.error };
  const bus: EventBus = db.url
    ? await PgBus.start(db.url, (err) => bootLog.warn('event bus:', err))
    : new MemoryBus();
  const ctx: AppContext = {
    config,
    db,
    bus,
    outbox: undefined as never,
    log: undefined as never,
    limiter: new LoginLimiter(),
    countersListeners: [],
  };
  ctx.outbox = new Outbox(ctx);
  ctx.countersListeners.push(engineCountersListener(ctx));
  ctx.outbox.register(notificationConsumer(ctx));
  ctx.outbox.register(channelConsumer(ctx));
  ctx.outbox.register(faultIssueConsumer(ctx));
  const app = await buildApp(ctx, { logger: options.logger });
  const deliveries = startDeliveryWorker(ctx);
  const reportMails = startReportMailScheduler(ctx);
  let closed = false;
  return {
    app,
    ctx,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await deliveries.close();
      await reportMails.close();
      await ctx.outbox.close();
      await bus.close();
      await db.close();
    },
  };
}
