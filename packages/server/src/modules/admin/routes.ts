import { idParams } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { listAccounts, setAccountState } from './service.js';

export const adminRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['admin'];
    app.get(
      '/api/admin/accounts',
      {
        config: { need: 'account.admin' },
        schema: { tags, summary: 'Subordinate accounts and their activation' },
      },
      async (req) => listAccounts(ctx, actorOf(req)),
    );
    app.put(
      '/api/admin/accounts/:id',
      {
        config: { need: 'account.admin' },
        schema: {
          tags,
          summary: 'Activate (s=1) or suspend (s=0) a subordinate account',
          params: idParams,
          body: z.object({ s: z.union([z.literal(0), z.literal(1)]) }),
        },
      },
      async (req) => setAccountState(ctx, actorOf(req), req.params.id, req.body.s),
    );
  };
