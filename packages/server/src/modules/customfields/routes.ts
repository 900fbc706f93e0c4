import {
  customFieldBody,
  customFieldDeleteQuery,
  customFieldDeleteReply,
  customFieldListReply,
  customFieldUpdateBody,
  customFieldWire,
  fleetParams,
  idParams,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { createField, deleteField, getField, listFields, NOT_FOUND, updateField } from './service.js';

/** Custom field definitions (spec §7 "Custom fields"; PRODUCT.md "Administration"). */
export const customFieldRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['custom fields'];
    app.get(
      '/api/fleets/:fid/custom-fields',
      {
        config: { need: 'fleet.member' },
        schema: {
          tags,
          summary: 'The fleet’s custom fields as {custom_fields}, sorted by name',
          params: fleetParams,
          response: { 200: customFieldListReply },
        },
      },
      async (req) => listFields(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      '/api/fleets/:fid/custom-fields',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary: 'Define a custom field (admin): type 1 text or 2 list with s.options; owner u/d/t/s/f',
          params: fleetParams,
          body: customFieldBody,
          response: { 200: customFieldWire },
        },
      },
      async (req) => createField(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.get(
      '/api/custom-fields/:id',
      {
        config: {
          need: 'fleet.member',
          fleetFrom: { record: 'custom_fields', param: 'id', hidden: NOT_FOUND },
        },
        schema: { tags, summary: 'One custom field', params: idParams, response: { 200: customFieldWire } },
      },
      async (req) => getField(ctx, actorOf(req), req.params.id),
    );
    app.put(
      '/api/custom-fields/:id',
      {
        config: {
          need: 'fleet.admin',
          fleetFrom: { record: 'custom_fields', param: 'id', hidden: NOT_FOUND },
        },
        schema: {
          tags,
          summary:
            'Change a custom field’s name, type or options (admin); the owner type stays; the field as read is accepted',
          params: idParams,
          body: customFieldUpdateBody,
          response: { 200: customFieldWire },
        },
      },
      async (req) => updateField(ctx, actorOf(req), req.params.id, req.body),
    );
    app.delete(
      '/api/custom-fields/:id',
      {
        config: {
          need: 'fleet.admin',
          fleetFrom: { record: 'custom_fields', param: 'id', hidden: NOT_FOUND },
        },
        schema: {
          tags,
          summary: 'Delete a custom field (admin); safe=1 (default) refuses while values exist',
          params: idParams,
          querystring: customFieldDeleteQuery,
          response: { 200: customFieldDeleteReply },
        },
      },
      async (req) => deleteField(ctx, actorOf(req), req.params.id, req.query.safe !== '0'),
    );
  };
