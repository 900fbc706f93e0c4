import { sessionLoginReply, setupBody, setupStateReply } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { forgetAccountTree } from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import { zApp } from '../../http/types.js';
import { issueLoginToken } from '../session/service.js';
import { createFirstSuperUser, setupNeeded } from './service.js';

/** The first run (issue 9 point 1); contracts in core contracts/setup.ts. Both routes are public. */
export const setupRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);

    app.get(
      '/api/setup',
      {
        config: { public: true },
        schema: {
          tags: ['setup'],
          summary: 'Whether the first-run set-up is needed (no user exists yet)',
          response: { 200: setupStateReply },
        },
      },
      async () => ({ needed: await setupNeeded(ctx.db) }),
    );

    app.post(
      '/api/setup',
      {
        config: { public: true },
        schema: {
          tags: ['setup'],
          summary:
            'First run: create the top account, the super user and a first fleet; 409 once a user exists. ' +
            'Returns a login token for GET /api/auth',
          body: setupBody,
          response: { 200: sessionLoginReply },
        },
      },
      async (req) => {
        const { extra } = await createFirstSuperUser(ctx.db, req.body, (trx, { userId }) =>
          issueLoginToken(trx, userId),
        );
        forgetAccountTree(ctx);
        req.log.info('first-run set-up done');
        return extra;
      },
    );
  };
