import { faultCodeRoutes as faultCodes } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { clearFaultCode, getCriticalCodes, listFaultCodes, setCriticalCodes } from './service.js';

/** A unit's fault codes (core routes/fault-codes.ts). */
export const faultCodeRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, faultCodes.list, async (req) =>
      listFaultCodes(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, faultCodes.clear, async (req) =>
      clearFaultCode(ctx, actorOf(req), req.params.fid, req.params.id, req.params.codeId),
    );
    serve(app, faultCodes.critical, async (req) => getCriticalCodes(ctx, actorOf(req), req.params.fid));
    serve(app, faultCodes.setCritical, async (req) =>
      setCriticalCodes(ctx, actorOf(req), req.params.fid, req.body),
    );
  };
