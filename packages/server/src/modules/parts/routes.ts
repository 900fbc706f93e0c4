import { partsRoutes as p, purchaseOrdersRoutes as po, stockLocationsRoutes as sl } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { createLocation, deleteLocation, getLocation, listLocations, updateLocation } from './locations.js';
import {
  actOnOrder,
  createOrder,
  deleteOrder,
  getOrder,
  listOrders,
  receiveOrder,
  updateOrder,
} from './orders.js';
import {
  adjustPart,
  createPart,
  deletePart,
  getPart,
  getSettings,
  listMoves,
  listParts,
  putSettings,
  setThreshold,
  transferPart,
  updatePart,
} from './service.js';

/** Parts, stock locations and purchase orders (docs/product.md "Parts and stock"; core routes/parts.ts). */
export const partRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, p.list, async (req) => listParts(ctx, actorOf(req), req.params.fid, req.query));
    serve(app, p.create, async (req) => createPart(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, p.settings, async (req) => getSettings(ctx, actorOf(req), req.params.fid));
    serve(app, p.updateSettings, async (req) =>
      putSettings(ctx, actorOf(req), req.params.fid, req.body.allow_negative_stock),
    );
    serve(app, p.get, async (req) => getPart(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, p.update, async (req) =>
      updatePart(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, p.remove, async (req) => deletePart(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, p.moves, async (req) => listMoves(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, p.adjust, async (req) =>
      adjustPart(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, p.transfer, async (req) =>
      transferPart(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, p.threshold, async (req) =>
      setThreshold(ctx, actorOf(req), req.params.fid, req.params.id, req.params.location, req.body.threshold),
    );

    serve(app, sl.list, async (req) => listLocations(ctx, actorOf(req), req.params.fid));
    serve(app, sl.create, async (req) => createLocation(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, sl.get, async (req) => getLocation(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, sl.update, async (req) =>
      updateLocation(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, sl.remove, async (req) => deleteLocation(ctx, actorOf(req), req.params.fid, req.params.id));

    serve(app, po.list, async (req) => listOrders(ctx, actorOf(req), req.params.fid, req.query));
    serve(app, po.create, async (req) => createOrder(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, po.get, async (req) => getOrder(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, po.update, async (req) =>
      updateOrder(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, po.remove, async (req) => deleteOrder(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, po.order, async (req) =>
      actOnOrder(ctx, actorOf(req), req.params.fid, req.params.id, 'order'),
    );
    serve(app, po.cancel, async (req) =>
      actOnOrder(ctx, actorOf(req), req.params.fid, req.params.id, 'cancel'),
    );
    serve(app, po.receive, async (req) =>
      receiveOrder(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
  };
