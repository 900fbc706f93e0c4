import { meterRoutes as meter } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { meterReplaced, recordReading, restoreReading, voidReading } from './integrity.js';
import { acceptReading, correctCounters, listMeter } from './service.js';

/** A unit's meter history (PRODUCT.md "Service objects and counters"; core routes/meter.ts). */
export const meterRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, meter.list, async (req) =>
      listMeter(ctx, actorOf(req), req.params.fid, req.params.id, req.query.from, req.query.to),
    );
    serve(app, meter.correct, async (req) =>
      correctCounters(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, meter.accept, async (req) =>
      acceptReading(ctx, actorOf(req), req.params.fid, req.params.id, req.params.readingId),
    );
    serve(app, meter.void, async (req) =>
      voidReading(ctx, actorOf(req), req.params.fid, req.params.id, req.params.readingId, req.body),
    );
    serve(app, meter.restore, async (req) =>
      restoreReading(ctx, actorOf(req), req.params.fid, req.params.id, req.params.readingId),
    );
    serve(app, meter.record, async (req) =>
      recordReading(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, meter.replaced, async (req) =>
      meterReplaced(ctx, actorOf(req), req.params.fid, req.params.id),
    );
  };
