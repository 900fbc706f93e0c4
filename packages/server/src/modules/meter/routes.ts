import {
  fleetItemParams,
  meterAcceptBody,
  meterChangeReply,
  meterCorrectionBody,
  meterListQuery,
  meterListReply,
  meterReadingParams,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { acceptReading, correctCounters, listMeter } from './service.js';

/** A unit's meter history (issue 14; core contracts/meter.ts). */
export const meterRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['meter'];
    const base = '/api/fleets/:fid/units/:id/meter';

    app.get(
      base,
      {
        config: { need: 'meter.view' },
        schema: {
          tags,
          summary: 'A unit’s meter history: kept readings (refused ones with the reason) and corrections',
          params: fleetItemParams,
          querystring: meterListQuery,
          response: { 200: meterListReply },
        },
      },
      async (req) =>
        listMeter(ctx, actorOf(req), req.params.fid, req.params.id, req.query.from, req.query.to),
    );
    app.post(
      base,
      {
        config: { need: 'meter.manage' },
        schema: {
          tags,
          summary: 'A hand correction of the unit’s mileage and/or engine hours (recorded with who and when)',
          params: fleetItemParams,
          body: meterCorrectionBody,
          response: { 200: meterChangeReply },
        },
      },
      async (req) => correctCounters(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.post(
      `${base}/:readingId/accept`,
      {
        config: { need: 'meter.manage' },
        schema: {
          tags,
          summary: 'Accepts a refused reading; the newest becomes the unit’s counters',
          params: meterReadingParams,
          body: meterAcceptBody,
          response: { 200: meterChangeReply },
        },
      },
      async (req) => acceptReading(ctx, actorOf(req), req.params.fid, req.params.id, req.params.readingId),
    );
  };
