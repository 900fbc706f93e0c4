import { clientErrorsRoutes as clientErrors } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorFromHeader, actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { listFaults, reportFault } from './faults.js';

/** A report is small; a larger body is refused before it is parsed. */
const REPORT_BODY_LIMIT = 16 * 1024;

/** Faults of the web client (spec §8; core routes/client-errors.ts). */
export const clientErrorRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(
      app,
      clientErrors.report,
      async (req, reply) => {
        // A stale or missing session still reports: the fault may be why the session is gone.
        const actor = await actorFromHeader(ctx, req.headers.authorization).catch(() => undefined);
        await reportFault(ctx, req.body, {
          address: req.ip,
          userAgent: req.headers['user-agent'] ?? '',
          actor,
        });
        return reply.status(204).send(null);
      },
      { bodyLimit: REPORT_BODY_LIMIT },
    );
    serve(app, clientErrors.list, async (req) => listFaults(ctx, actorOf(req)));
  };
