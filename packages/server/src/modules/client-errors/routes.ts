import { clientFaultBody, clientFaultsReply, noContent } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorFromHeader, actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { listFaults, reportFault } from './faults.js';

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
          body: clientFaultBody,
          response: { 204: noContent },
        },
      },
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
    );

    app.get(
      '/api/admin/client_errors',
      {
        config: { need: 'platform.su' },
        schema: {
          tags: ['admin'],
          summary: 'The newest client fault reports, newest first (super user)',
          response: { 200: clientFaultsReply },
        },
      },
      async (req) => listFaults(ctx, actorOf(req)),
    );
  };
