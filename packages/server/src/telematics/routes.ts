import {
  osmandBody,
  osmandQuery,
  osmandReply,
  telematicsBatchBody,
  telematicsBatchReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { actorOf } from '../http/auth-hook.js';
import { zApp } from '../http/types.js';
import { recoverShifts } from './baseline-shift.js';
import { ingestBatchAs, ingestOsmand, osmandInput } from './service.js';

/** A full batch (core `TELEMATICS_BATCH_MAX_ROWS` rows) is larger than the default body limit. */
const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

const tags = ['telematics'];

/**
 * Telematics ingestion under /api (DESIGN §3); the OsmAnd port serves the same service. Contracts in core
 * contracts/telematics.ts: the fields are described there, the parser (reading.ts) checks them.
 */
export const ingestRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    // Interval baseline moves recorded by readings whose process died before applying them (issue 14).
    fastify.addHook('onReady', () => recoverShifts(ctx));

    app.get(
      '/api/ingest/osmand',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'OsmAnd / Traccar Client reading (GET query); authenticated by the device identifier',
          security: [],
          querystring: osmandQuery,
          response: { 200: osmandReply },
        },
      },
      async (req) => ingestOsmand(ctx, osmandInput(req.query, undefined)),
    );
    app.post(
      '/api/ingest/osmand',
      {
        config: { public: true },
        schema: {
          tags,
          summary:
            'OsmAnd / Traccar Client reading (form, or JSON body); authenticated by the device identifier',
          security: [],
          querystring: osmandQuery,
          body: osmandBody,
          response: { 200: osmandReply },
        },
      },
      async (req) => ingestOsmand(ctx, osmandInput(req.query, req.body)),
    );
    app.post(
      '/api/ingest/batch',
      {
        config: { need: 'telematics.ingest', fleetFrom: { body: true } },
        bodyLimit: BATCH_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Readings of many units in order (admin rights on each unit’s fleet); per-row results',
          body: telematicsBatchBody,
          response: { 200: telematicsBatchReply },
        },
      },
      async (req) => ingestBatchAs(ctx, actorOf(req), req.body.positions),
    );
  };
