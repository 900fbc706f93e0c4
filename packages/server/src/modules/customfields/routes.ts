import { customfieldsRoutes as fields } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import type { FleetSource } from '../../http/needs.js';
import { serve } from '../../http/serve.js';
import { createField, deleteField, getField, listFields, NOT_FOUND, updateField } from './service.js';

/** The fleet of a route by field id is the field's; an unknown or foreign field answers 404. */
const byField: FleetSource = { record: 'custom_fields', param: 'id', hidden: NOT_FOUND };

/** Custom field definitions (spec §7 "Custom fields"; PRODUCT.md "Administration"; core routes/customfields.ts). */
export const customFieldRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, fields.list, async (req) => listFields(ctx, actorOf(req), req.params.fid));
    serve(app, fields.create, async (req) => createField(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, fields.get, async (req) => getField(ctx, actorOf(req), req.params.id), { fleetFrom: byField });
    serve(app, fields.update, async (req) => updateField(ctx, actorOf(req), req.params.id, req.body), {
      fleetFrom: byField,
    });
    serve(
      app,
      fields.remove,
      async (req) => deleteField(ctx, actorOf(req), req.params.id, req.query.safe !== '0'),
      { fleetFrom: byField },
    );
  };
