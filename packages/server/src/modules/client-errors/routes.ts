import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorFromHeader, actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { FAULT_KINDS, listFaults, reportFault } from './faults.js';

/** A report is small; a larger body is refused before it is parsed. */
const REPORT_BODY_LIMIT = 16 * 1024;

export const clientErrorRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);

    app.post(
      '/api/client_errors',
      {
        bodyLimit: REPORT_BODY_LIMIT,
        config: { public: true },
        schema: {
          tags: ['meta'],
          summary:
            'Report a fault of the web client (spec §8); public, limited per address; the session, when sent, names the user',
          body: z.object({
            kind: z.enum(FAULT_KINDS),
            release: z.string().trim().min(1).max(32),
            message: z.string().trim().min(1).max(2000),
            stack: z.string().max(8000).optional(),
            url: z.string().max(2000).optional(),
          }),
        },
      },
      async (req, reply) => {
        // A stale or missing session still reports: the fault may be why the session is gone.
        const actor = await actorFromHeader(ctx, req.headers.authorization).catch(() => undefined);
        reportFault(ctx, req.body, {
          address: req.ip,
          userAgent: req.headers['user-agent'] ?? '',
          actor,
        });
        return reply.status(204).send();
      },
    );

    app.get(
      '/api/admin/client_errors',
      {
        config: { need: 'platform.su' },
        schema: { tags: ['admin'], summary: 'The newest client fault reports, newest first (super user)' },
      },
      async (req) => listFaults(ctx, actorOf(req)),
    );
  };
