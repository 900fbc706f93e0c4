import { notificationChannelsRoutes as channels } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import {
  createBot,
  createMail,
  createWebhook,
  deleteSetup,
  listBots,
  listDeliveries,
  listMails,
  listWebhooks,
  retryDelivery,
  testBot,
  testMail,
  testWebhook,
  updateBot,
  updateMail,
  updateWebhook,
} from './service.js';

/**
 * Notification channels (spec §7 "E-mail notification configs"; PRODUCT.md "Notifications": `mails`,
 * `bots` and `webhooks` of the same shape) and the delivery log (core routes/notification-channels.ts).
 */
export const notificationChannelRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, channels.mails, async (req) => listMails(ctx, actorOf(req), req.params.fid));
    serve(app, channels.mailCreate, async (req) => createMail(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, channels.mailTest, async (req) => testMail(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, channels.mailUpdate, async (req) =>
      updateMail(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, channels.mailRemove, async (req) =>
      deleteSetup(ctx, actorOf(req), req.params.fid, 'mail', req.params.id),
    );

    serve(app, channels.bots, async (req) => listBots(ctx, actorOf(req), req.params.fid));
    serve(app, channels.botCreate, async (req) => createBot(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, channels.botTest, async (req) => testBot(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, channels.botUpdate, async (req) =>
      updateBot(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, channels.botRemove, async (req) =>
      deleteSetup(ctx, actorOf(req), req.params.fid, 'bot', req.params.id),
    );

    serve(app, channels.webhooks, async (req) => listWebhooks(ctx, actorOf(req), req.params.fid));
    serve(app, channels.webhookCreate, async (req) =>
      createWebhook(ctx, actorOf(req), req.params.fid, req.body),
    );
    serve(app, channels.webhookTest, async (req) => testWebhook(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, channels.webhookUpdate, async (req) =>
      updateWebhook(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, channels.webhookRemove, async (req) =>
      deleteSetup(ctx, actorOf(req), req.params.fid, 'webhook', req.params.id),
    );

    serve(app, channels.deliveries, async (req) =>
      listDeliveries(ctx, actorOf(req), req.params.fid, req.query),
    );
    serve(app, channels.deliveryRetry, async (req) =>
      retryDelivery(ctx, actorOf(req), req.params.fid, req.params.id),
    );
  };
