import { intervalsRoutes as intervals } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { intervalUnits, objectBases, setIntervalUnits, setObjectBases } from './assignments.js';
import { importIntervals } from './batch.js';
import { createInterval, deleteInterval, listIntervals, updateInterval } from './service.js';

/** Intervals and their assignments (spec §7 "Intervals"; PRODUCT.md "Intervals"; core routes/intervals.ts). */
export const intervalRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, intervals.list, async (req) => listIntervals(ctx, actorOf(req), req.params.fid));
    serve(app, intervals.create, async (req) => createInterval(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, intervals.createMany, async (req) =>
      importIntervals(ctx, actorOf(req), req.params.fid, req.body.intervals),
    );
    serve(app, intervals.update, async (req) =>
      updateInterval(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, intervals.remove, async (req) =>
      deleteInterval(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, intervals.units, async (req) =>
      intervalUnits(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, intervals.setUnits, async (req) =>
      setIntervalUnits(ctx, actorOf(req), req.params.fid, req.params.id, req.body.units),
    );
    const bases = [
      ['units', intervals.unitBases, intervals.setUnitBases],
      ['drivers', intervals.driverBases, intervals.setDriverBases],
      ['trailers', intervals.trailerBases, intervals.setTrailerBases],
    ] as const;
    for (const [kind, read, set] of bases) {
      serve(app, read, async (req) => objectBases(ctx, actorOf(req), req.params.fid, kind, req.params.id));
      serve(app, set, async (req) =>
        setObjectBases(ctx, actorOf(req), req.params.fid, kind, req.params.id, req.body.bases),
      );
    }
  };
