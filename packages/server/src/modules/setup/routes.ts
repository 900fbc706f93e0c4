import { setupRoutes as setup } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { forgetAccountTree } from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { issueLoginToken } from '../session/service.js';
import { createFirstSuperUser, setupNeeded } from './service.js';

/** The first run (DESIGN §8; core routes/setup.ts). Both routes are public. */
export const setupRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, setup.state, async () => ({ needed: await setupNeeded(ctx.db) }));
    serve(app, setup.run, async (req) => {
      const { extra } = await createFirstSuperUser(ctx.db, req.body, (trx, { userId }) =>
        issueLoginToken(trx, userId),
      );
      forgetAccountTree(ctx);
      req.log.info('first-run set-up done');
      return extra;
    });
  };
