import { decimal3, fleetItemParams, fleetParams, id, Limits } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { kindInput } from './library.js';
import { batchItems, createItem, deleteItem, fuelPresets, listItems, updateItem } from './service.js';

const item = z.object({
  n: z.string().trim().min(1).max(Limits.stringMax),
  t: kindInput,
  c: decimal3(),
});

/** The line-items library (spec §7 "Line items"; PRODUCT.md "Line-items library"). */
export const lineItemRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['line items'];
    app.get(
      '/api/fleets/:fid/line_items',
      {
        config: { need: 'lineitem.view' },
        schema: { tags, summary: 'The library, sorted by name', params: fleetParams },
      },
      async (req) => listItems(ctx, actorOf(req), req.params.fid),
    );
    app.get(
      '/api/fleets/:fid/line_items/fuel_presets',
      {
        config: { need: 'lineitem.view' },
        schema: { tags, summary: 'Common fuel types offered for the fuel tab', params: fleetParams },
      },
      async (req) => fuelPresets(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      '/api/fleets/:fid/line_items',
      {
        config: { need: 'lineitem.manage' },
        schema: { tags, summary: 'Add an item (labour 1, part 2, fuel 4)', params: fleetParams, body: item },
      },
      async (req) => createItem(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.put(
      '/api/fleets/:fid/line_items/:id',
      {
        config: { need: 'lineitem.manage' },
        schema: { tags, summary: 'Change an item', params: fleetItemParams, body: item.partial() },
      },
      async (req) => updateItem(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      '/api/fleets/:fid/line_items/:id',
      {
        config: { need: 'lineitem.manage' },
        schema: { tags, summary: 'Delete an item', params: fleetItemParams },
      },
      async (req) => deleteItem(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.post(
      '/api/line_items/batch',
      {
        config: { need: 'lineitem.manage', fleetFrom: { body: true } },
        schema: {
          tags,
          summary: 'Import items; each row names its fleet; all rows or none (spec §5 "Import: line items")',
          body: z.object({ lineitems: z.array(item.extend({ fid: id })).max(1000) }),
        },
      },
      async (req) => batchItems(ctx, actorOf(req), req.body.lineitems),
    );
  };
