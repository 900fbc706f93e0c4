import { adminAccountBody, adminAccountState, adminAccountsReply, idParams } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { updateAccount } from './accounts.js';
import { listAccounts } from './service.js';

/** Accounts (spec §7 "Admin"); contracts in core contracts/admin.ts. */
export const adminRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['admin'];
    app.get(
      '/api/admin/accounts',
      {
        config: { need: 'account.admin' },
        schema: {
          tags,
          summary: 'Subordinate accounts and their activation',
          response: { 200: adminAccountsReply },
        },
      },
      async (req) => listAccounts(ctx, actorOf(req)),
    );
    app.put(
      '/api/admin/accounts/:id',
      {
        config: { need: 'account.admin' },
        schema: {
          tags,
          summary: 'Activate (s=1), suspend (s=0) or rename (n) an account; the account as read is accepted',
          params: idParams,
          body: adminAccountBody,
          response: { 200: adminAccountState },
        },
      },
      async (req) => updateAccount(ctx, actorOf(req), req.params.id, req.body),
    );
  };
