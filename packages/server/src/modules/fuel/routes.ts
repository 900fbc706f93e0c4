import { fuelRoutes as fuel } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { fuelAttachmentRoutes } from './attachment-routes.js';
import { createMany } from './batch.js';
import { createFilling, deleteOne, getFilling, listFillings, updateOne } from './service.js';

/** The fuel fillings API of spec §7 "Fuel fillings" (PRODUCT.md "Fuel fillings"; core routes/fuel.ts). */
export const fuelRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, fuel.list, async (req) =>
      listFillings(ctx, actorOf(req), req.params.fid, req.query.from, req.query.to),
    );
    serve(app, fuel.listOfUnit, async (req) =>
      listFillings(ctx, actorOf(req), req.params.fid, req.query.from, req.query.to, req.params.id),
    );
    serve(app, fuel.create, async (req) => createFilling(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, fuel.createMany, async (req) =>
      createMany(ctx, actorOf(req), req.params.fid, req.body.fuel_fillings),
    );
    serve(app, fuel.get, async (req) => getFilling(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, fuel.update, async (req) =>
      updateOne(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, fuel.remove, async (req) => deleteOne(ctx, actorOf(req), req.params.fid, req.params.id));
    await app.register(fuelAttachmentRoutes(ctx));
  };
