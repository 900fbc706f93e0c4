import {
  actionBody,
  botSetupBody,
  botSetupListReply,
  botSetupTestBody,
  botSetupUpdateBody,
  botSetupWire,
  type ChannelTestReply,
  channelTestReply,
  deliveriesQuery,
  deliveryListReply,
  deliveryWire,
  fleetItemParams,
  fleetParams,
  mailSetupBody,
  mailSetupListReply,
  mailSetupTestBody,
  mailSetupUpdateBody,
  mailSetupWire,
  type NotificationChannel,
  okReply,
  webhookSetupBody,
  webhookSetupListReply,
  webhookSetupTestBody,
  webhookSetupUpdateBody,
  webhookSetupWire,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
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

/** One channel's five routes: its contract, its service calls and the words of its OpenAPI entries. */
interface ChannelRoutes<B extends z.ZodType, U extends z.ZodType, T extends z.ZodType> {
  path: string;
  channel: NotificationChannel;
  schemas: { list: z.ZodType; wire: z.ZodType; body: B; update: U; test: T };
  summaries: { list: string; create: string; test: string; update: string; remove: string };
  list: (ctx: AppContext, actor: Actor, fid: number) => Promise<unknown>;
  create: (ctx: AppContext, actor: Actor, fid: number, body: z.output<B>) => Promise<unknown>;
  test: (ctx: AppContext, actor: Actor, fid: number, body: z.output<T>) => Promise<ChannelTestReply>;
  update: (ctx: AppContext, actor: Actor, fid: number, id: number, body: z.output<U>) => Promise<unknown>;
}

/**
 * Notification channels (spec §7 "E-mail notification configs": `mails` under /api/fleets/{fleetId};
 * issue 11 item 2 adds `bots` and `webhooks` of the same shape) and the delivery log. Every route:
 * admin or viewNotification, need `fleet.settings` (as the in-app set-ups).
 */
export const notificationChannelRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['notifications'];
    const config = { need: 'fleet.settings' as const };

    /** List, create, test, change and delete under `path` (the same shape for every channel). */
    function channel<B extends z.ZodType, U extends z.ZodType, T extends z.ZodType>(
      c: ChannelRoutes<B, U, T>,
    ) {
      const { path, schemas, summaries: s } = c;
      app.get(
        path,
        { config, schema: { tags, summary: s.list, params: fleetParams, response: { 200: schemas.list } } },
        async (req) => c.list(ctx, actorOf(req), req.params.fid),
      );
      app.post(
        path,
        {
          config,
          schema: {
            tags,
            summary: s.create,
            params: fleetParams,
            body: schemas.body,
            response: { 200: schemas.wire },
          },
        },
        async (req) => c.create(ctx, actorOf(req), req.params.fid, req.body as z.output<B>),
      );
      app.post(
        `${path}/test`,
        {
          config,
          schema: {
            tags,
            summary: s.test,
            params: fleetParams,
            body: schemas.test,
            response: { 200: channelTestReply },
          },
        },
        async (req) => c.test(ctx, actorOf(req), req.params.fid, req.body as z.output<T>),
      );
      app.put(
        `${path}/:id`,
        {
          config,
          schema: {
            tags,
            summary: s.update,
            params: fleetItemParams,
            body: schemas.update,
            response: { 200: schemas.wire },
          },
        },
        async (req) => c.update(ctx, actorOf(req), req.params.fid, req.params.id, req.body as z.output<U>),
      );
      app.delete(
        `${path}/:id`,
        { config, schema: { tags, summary: s.remove, params: fleetItemParams, response: { 200: okReply } } },
        async (req) => deleteSetup(ctx, actorOf(req), req.params.fid, c.channel, req.params.id),
      );
    }

    channel({
      path: '/api/fleets/:fid/mails',
      channel: 'mail',
      schemas: {
        list: mailSetupListReply,
        wire: mailSetupWire,
        body: mailSetupBody,
        update: mailSetupUpdateBody,
        test: mailSetupTestBody,
      },
      summaries: {
        list: 'The fleet’s e-mail notification set-ups',
        create: 'Add an e-mail set-up: recipients, kinds, language',
        test: 'Send a test e-mail with the fields sent (409 when SMTP_URL is not configured)',
        update: 'Change an e-mail set-up; the set-up as read is accepted (id ignored)',
        remove: 'Delete an e-mail set-up',
      },
      list: listMails,
      create: createMail,
      test: testMail,
      update: updateMail,
    });

    channel({
      path: '/api/fleets/:fid/bots',
      channel: 'bot',
      schemas: {
        list: botSetupListReply,
        wire: botSetupWire,
        body: botSetupBody,
        update: botSetupUpdateBody,
        test: botSetupTestBody,
      },
      summaries: {
        list: 'The fleet’s messaging bot set-ups (tokens are not shown)',
        create: 'Add a bot set-up: Telegram-compatible API base URL, token, chat ids, kinds, language',
        test: 'Send a test message with the fields sent (the saved token when none is sent)',
        update: 'Change a bot set-up; without token the stored one is kept',
        remove: 'Delete a bot set-up',
      },
      list: listBots,
      create: createBot,
      test: testBot,
      update: updateBot,
    });

    channel({
      path: '/api/fleets/:fid/webhooks',
      channel: 'webhook',
      schemas: {
        list: webhookSetupListReply,
        wire: webhookSetupWire,
        body: webhookSetupBody,
        update: webhookSetupUpdateBody,
        test: webhookSetupTestBody,
      },
      summaries: {
        list: 'The fleet’s external server (webhook) set-ups (secrets are not shown)',
        create: 'Add a webhook set-up: URL, kinds, optional HMAC-SHA256 signing secret',
        test: 'POST a test payload with the fields sent (the saved secret when none is sent)',
        update: 'Change a webhook set-up; without secret the stored one is kept, "" removes it',
        remove: 'Delete a webhook set-up',
      },
      list: listWebhooks,
      create: createWebhook,
      test: testWebhook,
      update: updateWebhook,
    });

    // --- the delivery log ---
    app.get(
      '/api/fleets/:fid/deliveries',
      {
        config,
        schema: {
          tags,
          summary:
            'Deliveries of e-mails, bot messages and webhooks, newest first (status, attempts, last error)',
          params: fleetParams,
          querystring: deliveriesQuery,
          response: { 200: deliveryListReply },
        },
      },
      async (req) => listDeliveries(ctx, actorOf(req), req.params.fid, req.query),
    );
    app.post(
      '/api/fleets/:fid/deliveries/:id/retry',
      {
        config,
        schema: {
          tags,
          summary: 'Retry a failed delivery by hand (once more; 409 when it is not failed, or a test)',
          params: fleetItemParams,
          body: actionBody,
          response: { 200: deliveryWire },
        },
      },
      async (req) => retryDelivery(ctx, actorOf(req), req.params.fid, req.params.id),
    );
  };
