import { fleetParams, idParams, Limits } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { OPTIONS_MAX, OWNER_TYPES } from './rules.js';
import { createField, deleteField, getField, listFields, NOT_FOUND, updateField } from './service.js';

const settings = z.object({
  /** Options of a list field: distinct, non-empty, at most 128 characters each (checked in rules.ts). */
  options: z
    .array(z.string().max(Limits.stringMax * 4))
    .max(OPTIONS_MAX)
    .optional(),
});

const field = z.object({
  n: z.string().trim().min(1).max(Limits.stringMax),
  /** 1 text, 2 list (spec §3 `tp`). */
  tp: z.union([z.literal(1), z.literal(2)]),
  /** Owner type: u unit, d driver, t trailer, s service, f fuel filling. */
  t: z.enum(OWNER_TYPES),
  s: settings.optional(),
});

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
          body: field,
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
        schema: { tags, summary: 'One custom field', params: idParams },
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
          summary: 'Change a custom field’s name, type or options (admin); the owner type stays',
          params: idParams,
          body: field.partial(),
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
          querystring: z.object({ safe: z.enum(['0', '1']).default('1') }),
        },
      },
      async (req) => deleteField(ctx, actorOf(req), req.params.id, req.query.safe !== '0'),
    );
  };
