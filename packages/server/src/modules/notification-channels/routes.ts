import {
  botSetupBody,
  botSetupListReply,
  botSetupTestBody,
  botSetupUpdateBody,
  botSetupWire,
  channelTestReply,
  deliveriesQuery,
  deliveryListReply,
  fleetItemParams,
  fleetParams,
  mailSetupBody,
  mailSetupListReply,
  mailSetupTestBody,
  mailSetupUpdateBody,
  mailSetupWire,
  okReply,
  webhookSetupBody,
  webhookSetupListReply,
  webhookSetupTestBody,
  webhookSetupUpdateBody,
  webhookSetupWire,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
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
  testBot,
  testMail,
  testWebhook,
  updateBot,
  updateMail,
  updateWebhook,
} from './service.js';

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
    const mails = '/api/fleets/:fid/mails';
    const bots = '/api/fleets/:fid/bots';
    const hooks = '/api/fleets/:fid/webhooks';

    // --- e-mail ---
    app.get(
      mails,
      {
        config,
        schema: {
          tags,
          summary: 'The fleet’s e-mail notification set-ups',
          params: fleetParams,
          response: { 200: mailSetupListReply },
        },
      },
      async (req) => listMails(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      mails,
      {
        config,
        schema: {
          tags,
          summary: 'Add an e-mail set-up: recipients, kinds, language',
          params: fleetParams,
          body: mailSetupBody,
          response: { 200: mailSetupWire },
        },
      },
      async (req) => createMail(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      `${mails}/test`,
      {
        config,
        schema: {
          tags,
          summary: 'Send a test e-mail with the fields sent (409 when SMTP_URL is not configured)',
          params: fleetParams,
          body: mailSetupTestBody,
          response: { 200: channelTestReply },
        },
      },
      async (req) => testMail(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.put(
      `${mails}/:id`,
      {
        config,
        schema: {
          tags,
          summary: 'Change an e-mail set-up; the set-up as read is accepted (id ignored)',
          params: fleetItemParams,
          body: mailSetupUpdateBody,
          response: { 200: mailSetupWire },
        },
      },
      async (req) => updateMail(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      `${mails}/:id`,
      {
        config,
        schema: {
          tags,
          summary: 'Delete an e-mail set-up',
          params: fleetItemParams,
          response: { 200: okReply },
        },
      },
      async (req) => deleteSetup(ctx, actorOf(req), req.params.fid, 'mail', req.params.id),
    );

    // --- messaging bot ---
    app.get(
      bots,
      {
        config,
        schema: {
          tags,
          summary: 'The fleet’s messaging bot set-ups (tokens are not shown)',
          params: fleetParams,
          response: { 200: botSetupListReply },
        },
      },
      async (req) => listBots(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      bots,
      {
        config,
        schema: {
          tags,
          summary: 'Add a bot set-up: Telegram-compatible API base URL, token, chat ids, kinds, language',
          params: fleetParams,
          body: botSetupBody,
          response: { 200: botSetupWire },
        },
      },
      async (req) => createBot(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      `${bots}/test`,
      {
        config,
        schema: {
          tags,
          summary: 'Send a test message with the fields sent (the saved token when none is sent)',
          params: fleetParams,
          body: botSetupTestBody,
          response: { 200: channelTestReply },
        },
      },
      async (req) => testBot(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.put(
      `${bots}/:id`,
      {
        config,
        schema: {
          tags,
          summary: 'Change a bot set-up; without token the stored one is kept',
          params: fleetItemParams,
          body: botSetupUpdateBody,
          response: { 200: botSetupWire },
        },
      },
      async (req) => updateBot(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      `${bots}/:id`,
      {
        config,
        schema: { tags, summary: 'Delete a bot set-up', params: fleetItemParams, response: { 200: okReply } },
      },
      async (req) => deleteSetup(ctx, actorOf(req), req.params.fid, 'bot', req.params.id),
    );

    // --- external server ---
    app.get(
      hooks,
      {
        config,
        schema: {
          tags,
          summary: 'The fleet’s external server (webhook) set-ups (secrets are not shown)',
          params: fleetParams,
          response: { 200: webhookSetupListReply },
        },
      },
      async (req) => listWebhooks(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      hooks,
      {
        config,
        schema: {
          tags,
          summary: 'Add a webhook set-up: URL, kinds, optional HMAC-SHA256 signing secret',
          params: fleetParams,
          body: webhookSetupBody,
          response: { 200: webhookSetupWire },
        },
      },
      async (req) => createWebhook(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      `${hooks}/test`,
      {
        config,
        schema: {
          tags,
          summary: 'POST a test payload with the fields sent (the saved secret when none is sent)',
          params: fleetParams,
          body: webhookSetupTestBody,
          response: { 200: channelTestReply },
        },
      },
      async (req) => testWebhook(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.put(
      `${hooks}/:id`,
      {
        config,
        schema: {
          tags,
          summary: 'Change a webhook set-up; without secret the stored one is kept, "" removes it',
          params: fleetItemParams,
          body: webhookSetupUpdateBody,
          response: { 200: webhookSetupWire },
        },
      },
      async (req) => updateWebhook(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      `${hooks}/:id`,
      {
        config,
        schema: {
          tags,
          summary: 'Delete a webhook set-up',
          params: fleetItemParams,
          response: { 200: okReply },
        },
      },
      async (req) => deleteSetup(ctx, actorOf(req), req.params.fid, 'webhook', req.params.id),
    );

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
  };
