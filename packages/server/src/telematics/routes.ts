import { telematicsRoutes as telematics } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { actorOf } from '../http/auth-hook.js';
import { serve } from '../http/serve.js';
import { recoverShifts } from './baseline-shift.js';
import { checkForwardToken, ingestBatchAs, ingestOsmand, ingestTraccar, osmandInput } from './service.js';

/** A full batch (core `TELEMATICS_BATCH_MAX_ROWS` rows) is larger than the default body limit. */
const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * Telematics ingestion under /api (DESIGN §3; core routes/telematics.ts); the OsmAnd port serves the
 * same service. The fields are described in core contracts/telematics.ts, the parser (reading.ts) checks
 * them.
 */
export const ingestRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    // Interval baseline moves recorded by readings whose process died before applying them.
    app.addHook('onReady', () => recoverShifts(ctx));

    serve(app, telematics.osmandGet, async (req) => ingestOsmand(ctx, osmandInput(req.query, undefined)));
    serve(app, telematics.osmandPost, async (req) => ingestOsmand(ctx, osmandInput(req.query, req.body)));
    serve(app, telematics.traccar, async (req) => ingestTraccar(ctx, req.body), {
      onRequest: async (req) => checkForwardToken(ctx, req),
    });
    serve(app, telematics.batch, async (req) => ingestBatchAs(ctx, actorOf(req), req.body.positions), {
      fleetFrom: { body: true },
      bodyLimit: BATCH_BODY_LIMIT,
    });
  };
