import { statisticsRoutes as statistics, statisticsFleetReply } from '@fleetkeep/core';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { ReplyContractError, replyProblems } from '../../http/replies.js';
import { serve } from '../../http/serve.js';
import { fleetStatistics, unitStatistics } from './service.js';

/**
 * The statistics calls of spec §7 "Fleet" (PRODUCT.md "Service objects and counters", "Dashboard"; core
 * routes/statistics.ts).
 */
export const statisticsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    /** Sends the fleet reply's JSON bytes as they are (from the statistics cache; no serialiser). */
    const sendJson = (reply: FastifyReply, json: Buffer, url: string): FastifyReply => {
      // The test servers still check the reply against its contract.
      if (ctx.config.checkReplies) {
        const problems = replyProblems(statisticsFleetReply, JSON.parse(json.toString('utf8')));
        if (problems.length) throw new ReplyContractError(`GET ${url}`, problems);
      }
      return reply.type('application/json; charset=utf-8').send(json as never);
    };

    serve(app, statistics.fleet, async (req, reply) =>
      sendJson(
        reply,
        await fleetStatistics(ctx, actorOf(req), req.params.fid, req.query.from, req.query.to),
        req.url,
      ),
    );
    serve(app, statistics.unit, async (req) =>
      unitStatistics(ctx, actorOf(req), req.params.fid, req.params.uid, req.query.from, req.query.to),
    );
  };
