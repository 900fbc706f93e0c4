import { adminRoutes as admin } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { updateAccount } from './accounts.js';
import { listAccounts } from './service.js';

/** Accounts (spec §7 "Admin"; core routes/admin.ts). */
export const adminRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, admin.accounts, async (req) => listAccounts(ctx, actorOf(req)));
    serve(app, admin.accountUpdate, async (req) => updateAccount(ctx, actorOf(req), req.params.id, req.body));
  };
