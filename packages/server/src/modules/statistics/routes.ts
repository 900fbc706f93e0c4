import {
  fleetParams,
  statisticsFleetReply,
  statisticsPeriodQuery,
  statisticsUnitParams,
  statisticsUnitReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { ReplyContractError, replyProblems } from '../../http/replies.js';
import { zApp } from '../../http/types.js';
import { fleetStatistics, unitStatistics } from './service.js';

/** The statistics calls of spec §7 "Fleet" (PRODUCT.md "Service objects and counters", "Dashboard"). */
export const statisticsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['statistics'];

    app.get(
      '/api/fleets/:fid/statistics',
      {
        config: { need: 'service.view' },
        schema: {
          tags,
          summary:
            'Fleet totals of a period (km, engine hours, closed services cost, cost per km) and per-unit rows; from/to: YYYY-MM-DD or Unix seconds, fleet days, ≤ 366 days',
          params: fleetParams,
          querystring: statisticsPeriodQuery,
          response: { 200: statisticsFleetReply },
        },
      },
      async (req, reply) => {
        const json = await fleetStatistics(ctx, actorOf(req), req.params.fid, req.query.from, req.query.to);
        // The reply is JSON bytes already (from the statistics cache); the test servers still check it.
        if (ctx.config.checkReplies) {
          const problems = replyProblems(statisticsFleetReply, JSON.parse(json.toString('utf8')));
          if (problems.length) throw new ReplyContractError(`GET ${req.url}`, problems);
        }
        // Bytes are sent as they are (no serialiser).
        return reply.type('application/json; charset=utf-8').send(json as never);
      },
    );
    app.get(
      '/api/fleets/:fid/units/:uid/statistics',
      {
        config: { need: 'service.view' },
        schema: {
          tags,
          summary:
            'One unit over a period: km driven, engine hours, closed services cost, cost per km (null when no distance)',
          params: statisticsUnitParams,
          querystring: statisticsPeriodQuery,
          response: { 200: statisticsUnitReply },
        },
      },
      async (req) =>
        unitStatistics(ctx, actorOf(req), req.params.fid, req.params.uid, req.query.from, req.query.to),
    );
  };
