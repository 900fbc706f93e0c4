import { adminRoutes as admin } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { createAccount } from './accounts.js';
import { createUser, deleteUser, listUsers, setUserPassword, updateUser } from './users.js';

/**
 * Creating accounts and managing users (PRODUCT.md "Administration"); our routes beside spec §7 "Admin"
 * (core routes/admin.ts). Every route needs `account.admin`, and the service narrows it to the caller's
 * subtree.
 */
export const adminUserRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, admin.accountCreate, async (req) => createAccount(ctx, actorOf(req), req.body));
    serve(app, admin.users, async (req) => listUsers(ctx, actorOf(req), req.params.id));
    serve(app, admin.userCreate, async (req) => createUser(ctx, actorOf(req), req.params.id, req.body));
    serve(app, admin.userUpdate, async (req) => updateUser(ctx, actorOf(req), req.params.id, req.body));
    serve(app, admin.userPassword, async (req) => {
      await setUserPassword(ctx, actorOf(req), req.params.id, req.body.password);
      return { error: 0 as const };
    });
    serve(app, admin.userRemove, async (req) => {
      await deleteUser(ctx, actorOf(req), req.params.id);
      return { error: 0 as const };
    });
  };
