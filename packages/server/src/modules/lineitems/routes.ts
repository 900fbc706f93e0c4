import { lineitemsRoutes as items } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { batchItems, createItem, deleteItem, fuelPresets, listItems, updateItem } from './service.js';

/** The line-items library (spec §7 "Line items"; PRODUCT.md "Line-items library"; core routes/lineitems.ts). */
export const lineItemRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, items.list, async (req) => listItems(ctx, actorOf(req), req.params.fid));
    serve(app, items.fuelPresets, async (req) => fuelPresets(ctx, actorOf(req), req.params.fid));
    serve(app, items.create, async (req) => createItem(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, items.update, async (req) =>
      updateItem(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, items.remove, async (req) => deleteItem(ctx, actorOf(req), req.params.fid, req.params.id));
    // Each row names its fleet (spec §5 "Import: line items").
    serve(app, items.createMany, async (req) => batchItems(ctx, actorOf(req), req.body.lineitems), {
      fleetFrom: { body: true },
    });
  };
