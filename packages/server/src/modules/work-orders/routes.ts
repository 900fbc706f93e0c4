import { workOrdersRoutes as wo } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { actOnWorkOrder, completeWorkOrder } from './actions.js';
import {
  createWorkOrder,
  deleteWorkOrder,
  getWorkOrder,
  listAssignees,
  listWorkOrders,
  updateWorkOrder,
} from './service.js';

/** The work-orders API (docs/product.md "Work orders"; core routes/work-orders.ts). */
export const workOrderRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, wo.list, async (req) => listWorkOrders(ctx, actorOf(req), req.params.fid, req.query));
    serve(app, wo.assignees, async (req) => listAssignees(ctx, actorOf(req), req.params.fid));
    serve(app, wo.create, async (req) => createWorkOrder(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, wo.get, async (req) => getWorkOrder(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, wo.update, async (req) =>
      updateWorkOrder(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, wo.remove, async (req) => deleteWorkOrder(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, wo.start, async (req) =>
      actOnWorkOrder(ctx, actorOf(req), req.params.fid, req.params.id, 'start'),
    );
    serve(app, wo.hold, async (req) =>
      actOnWorkOrder(ctx, actorOf(req), req.params.fid, req.params.id, 'hold'),
    );
    serve(app, wo.cancel, async (req) =>
      actOnWorkOrder(ctx, actorOf(req), req.params.fid, req.params.id, 'cancel'),
    );
    serve(app, wo.complete, async (req) =>
      completeWorkOrder(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
  };
