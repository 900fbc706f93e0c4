import {
  fleetItemParams,
  fleetParams,
  lineItemBody,
  lineItemFuelPresetsReply,
  lineItemImportBody,
  lineItemListReply,
  lineItemUpdateBody,
  lineItemWire,
  okReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { batchItems, createItem, deleteItem, fuelPresets, listItems, updateItem } from './service.js';

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
        schema: {
          tags,
          summary: 'The library, sorted by name',
          params: fleetParams,
          response: { 200: lineItemListReply },
        },
      },
      async (req) => listItems(ctx, actorOf(req), req.params.fid),
    );
    app.get(
      '/api/fleets/:fid/line_items/fuel_presets',
      {
        config: { need: 'lineitem.view' },
        schema: {
          tags,
          summary: 'Common fuel types offered for the fuel tab',
          params: fleetParams,
          response: { 200: lineItemFuelPresetsReply },
        },
      },
      async (req) => fuelPresets(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      '/api/fleets/:fid/line_items',
      {
        config: { need: 'lineitem.manage' },
        schema: {
          tags,
          summary: 'Add an item (labour 1, part 2, fuel 4)',
          params: fleetParams,
          body: lineItemBody,
          response: { 200: lineItemWire },
        },
      },
      async (req) => createItem(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.put(
      '/api/fleets/:fid/line_items/:id',
      {
        config: { need: 'lineitem.manage' },
        schema: {
          tags,
          summary: 'Change an item; the item as read is accepted (id ignored)',
          params: fleetItemParams,
          body: lineItemUpdateBody,
          response: { 200: lineItemWire },
        },
      },
      async (req) => updateItem(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      '/api/fleets/:fid/line_items/:id',
      {
        config: { need: 'lineitem.manage' },
        schema: {
          tags,
          summary: 'Delete an item',
          params: fleetItemParams,
          response: { 200: okReply },
        },
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
          body: lineItemImportBody,
          response: { 200: lineItemListReply },
        },
      },
      async (req) => batchItems(ctx, actorOf(req), req.body.lineitems),
    );
  };
