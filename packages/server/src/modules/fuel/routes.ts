import {
  fleetItemParams,
  fleetParams,
  fuelFillingCreateBody,
  fuelFillingDeleteReply,
  fuelFillingImportBody,
  fuelFillingListQuery,
  fuelFillingListReply,
  fuelFillingUpdateBody,
  fuelFillingWire,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { fuelAttachmentRoutes } from './attachment-routes.js';
import { createMany } from './batch.js';
import { createFilling, deleteOne, getFilling, listFillings, updateOne } from './service.js';

/** The fuel fillings API of spec §7 "Fuel fillings" (PRODUCT.md "Fuel fillings"). */
export const fuelRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['fuel fillings'];
    const base = '/api/fleets/:fid/fuel-fillings';
    const period = 'from/to: YYYY-MM-DD or Unix seconds, whole fleet days, ≤ 366 days';

    app.get(
      base,
      {
        config: { need: 'fuel.view' },
        schema: {
          tags,
          summary: `Fuel fillings of a period, by time (${period})`,
          params: fleetParams,
          querystring: fuelFillingListQuery,
          response: { 200: fuelFillingListReply },
        },
      },
      async (req) => listFillings(ctx, actorOf(req), req.params.fid, req.query.from, req.query.to),
    );
    app.get(
      '/api/fleets/:fid/units/:id/fuel-fillings',
      {
        config: { need: 'fuel.view' },
        schema: {
          tags,
          summary: `Fuel fillings of one unit in a period, by time (${period})`,
          params: fleetItemParams,
          querystring: fuelFillingListQuery,
          response: { 200: fuelFillingListReply },
        },
      },
      async (req) =>
        listFillings(ctx, actorOf(req), req.params.fid, req.query.from, req.query.to, req.params.id),
    );
    app.post(
      base,
      {
        config: { need: 'fuel.manage' },
        schema: {
          tags,
          summary: 'Record a fuel filling of a unit (volume and price in the fleet fuel unit)',
          params: fleetParams,
          body: fuelFillingCreateBody,
          response: { 200: fuelFillingWire },
        },
      },
      async (req) => createFilling(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      `${base}/batch`,
      {
        config: { need: 'fuel.manage' },
        schema: {
          tags,
          summary: 'Import fuel fillings (atomic, per-row errors)',
          params: fleetParams,
          body: fuelFillingImportBody,
          response: { 200: fuelFillingListReply },
        },
      },
      async (req) => createMany(ctx, actorOf(req), req.params.fid, req.body.fuel_fillings),
    );
    app.get(
      `${base}/:id`,
      {
        config: { need: 'fuel.view' },
        schema: {
          tags,
          summary: 'One fuel filling',
          params: fleetItemParams,
          response: { 200: fuelFillingWire },
        },
      },
      async (req) => getFilling(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.put(
      `${base}/:id`,
      {
        config: { need: 'fuel.manage' },
        schema: {
          tags,
          summary: 'Update a fuel filling; the record as read is accepted',
          params: fleetItemParams,
          body: fuelFillingUpdateBody,
          response: { 200: fuelFillingWire },
        },
      },
      async (req) => updateOne(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      `${base}/:id`,
      {
        config: { need: 'fuel.delete' },
        schema: {
          tags,
          summary: 'Delete a fuel filling and its attachments (deleteFuelfilling)',
          params: fleetItemParams,
          response: { 200: fuelFillingDeleteReply },
        },
      },
      async (req) => deleteOne(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    await fastify.register(fuelAttachmentRoutes(ctx));
  };
