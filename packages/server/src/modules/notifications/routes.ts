import { notificationsRoutes as notifications } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
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
 * In-app notifications (spec §7 "Notifications and alerts"; core routes/notifications.ts):
 * `/notifications` are the fleet's in-app set-ups, `/user/alerts` the caller's own notifications.
 */
export const notificationRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, notifications.setups, async (req) => listSetups(ctx, actorOf(req), req.params.fid));
    serve(app, notifications.setupCreate, async (req) =>
      createSetup(ctx, actorOf(req), req.params.fid, req.body),
    );
    serve(app, notifications.setupTest, async (req) =>
      testSetup(ctx, actorOf(req), req.params.fid, req.body),
    );
    serve(app, notifications.setup, async (req) =>
      getSetup(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, notifications.setupUpdate, async (req) =>
      updateSetup(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, notifications.setupRemove, async (req) =>
      deleteSetup(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, notifications.alerts, async (req) => listAlerts(ctx, actorOf(req), req.params.fid));
    serve(app, notifications.alertsRead, async (req) =>
      readAlerts(ctx, actorOf(req), req.params.fid, req.body),
    );
    serve(app, notifications.alertsRemove, async (req) =>
      deleteAlerts(ctx, actorOf(req), req.params.fid, req.body),
    );
  };
