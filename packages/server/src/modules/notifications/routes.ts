import {
  alertDeleteReply,
  alertListReply,
  alertReadReply,
  alertSelectionBody,
  fleetItemParams,
  fleetParams,
  inAppSetupBody,
  inAppSetupListReply,
  inAppSetupTestBody,
  inAppSetupTestReply,
  inAppSetupUpdateBody,
  inAppSetupWire,
  okReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import {
  createSetup,
  deleteAlerts,
  deleteSetup,
  getSetup,
  listAlerts,
  listSetups,
  readAlerts,
  testSetup,
  updateSetup,
} from './service.js';

/**
 * In-app notifications (spec §7 "Notifications and alerts"; issue 11 items 1 and 2). Which path means
 * what is decided in core contracts/notifications.ts: `/notifications` are the fleet's in-app set-ups,
 * `/user/alerts` the caller's own notifications.
 */
export const notificationRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['notifications'];
    const setups = '/api/fleets/:fid/notifications';
    const alerts = '/api/fleets/:fid/user/alerts';

    app.get(
      setups,
      {
        config: { need: 'fleet.settings' },
        schema: {
          tags,
          summary: 'The fleet’s in-app notification set-ups',
          params: fleetParams,
          response: { 200: inAppSetupListReply },
        },
      },
      async (req) => listSetups(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      setups,
      {
        config: { need: 'fleet.settings' },
        schema: {
          tags,
          summary:
            'Add an in-app set-up: kinds (1 due, 2 in progress, 4 overdue, 8 closed, 16 rejected), users',
          params: fleetParams,
          body: inAppSetupBody,
          response: { 200: inAppSetupWire },
        },
      },
      async (req) => createSetup(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      `${setups}/test`,
      {
        config: { need: 'fleet.settings' },
        schema: {
          tags,
          summary: 'Send a test notification of the set-up’s lowest kind to the users it addresses',
          params: fleetParams,
          body: inAppSetupTestBody,
          response: { 200: inAppSetupTestReply },
        },
      },
      async (req) => testSetup(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.get(
      `${setups}/:id`,
      {
        config: { need: 'fleet.settings' },
        schema: {
          tags,
          summary: 'One in-app set-up',
          params: fleetItemParams,
          response: { 200: inAppSetupWire },
        },
      },
      async (req) => getSetup(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.put(
      `${setups}/:id`,
      {
        config: { need: 'fleet.settings' },
        schema: {
          tags,
          summary: 'Change an in-app set-up; the set-up as read is accepted (id ignored)',
          params: fleetItemParams,
          body: inAppSetupUpdateBody,
          response: { 200: inAppSetupWire },
        },
      },
      async (req) => updateSetup(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      `${setups}/:id`,
      {
        config: { need: 'fleet.settings' },
        schema: {
          tags,
          summary: 'Delete an in-app set-up',
          params: fleetItemParams,
          response: { 200: okReply },
        },
      },
      async (req) => deleteSetup(ctx, actorOf(req), req.params.fid, req.params.id),
    );

    app.get(
      alerts,
      {
        config: { need: 'service.view' },
        schema: {
          tags,
          summary: 'The caller’s notifications in the fleet, newest first, and the unread count',
          params: fleetParams,
          response: { 200: alertListReply },
        },
      },
      async (req) => listAlerts(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      alerts,
      {
        config: { need: 'service.view' },
        schema: {
          tags,
          summary: 'Mark notifications read, by event ids or all of a kind (only unread ones change)',
          params: fleetParams,
          body: alertSelectionBody,
          response: { 200: alertReadReply },
        },
      },
      async (req) => readAlerts(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      `${alerts}/delete`,
      {
        config: { need: 'service.view' },
        schema: {
          tags,
          summary: 'Delete notifications, by event ids or all of a kind',
          params: fleetParams,
          body: alertSelectionBody,
          response: { 200: alertDeleteReply },
        },
      },
      async (req) => deleteAlerts(ctx, actorOf(req), req.params.fid, req.body),
    );
  };
