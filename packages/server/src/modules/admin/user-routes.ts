import {
  adminAccountCreateBody,
  adminAccountWire,
  adminUserCreateBody,
  adminUserPasswordBody,
  adminUsersReply,
  adminUserUpdateBody,
  adminUserWire,
  idParams,
  okReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { createAccount } from './accounts.js';
import { createUser, deleteUser, listUsers, setUserPassword, updateUser } from './users.js';

/**
 * Creating accounts and managing users (issue 9 "Accounts and activation", "Users"); our routes beside
 * spec §7 "Admin". Contracts in core contracts/admin.ts; every route needs `account.admin`, and the
 * service narrows it to the caller's subtree.
 */
export const adminUserRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['admin'];
    const config = { need: 'account.admin' as const };
    app.post(
      '/api/admin/accounts',
      {
        config,
        schema: {
          tags,
          summary: "Create a subordinate account (default parent: the caller's own account)",
          body: adminAccountCreateBody,
          response: { 200: adminAccountWire },
        },
      },
      async (req) => createAccount(ctx, actorOf(req), req.body),
    );
    app.get(
      '/api/admin/accounts/:id/users',
      {
        config,
        schema: {
          tags,
          summary: 'Users of an account',
          params: idParams,
          response: { 200: adminUsersReply },
        },
      },
      async (req) => listUsers(ctx, actorOf(req), req.params.id),
    );
    app.post(
      '/api/admin/accounts/:id/users',
      {
        config,
        schema: {
          tags,
          summary: 'Create a user of an account; the login is unique across the installation (409)',
          params: idParams,
          body: adminUserCreateBody,
          response: { 200: adminUserWire },
        },
      },
      async (req) => createUser(ctx, actorOf(req), req.params.id, req.body),
    );
    app.put(
      '/api/admin/users/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Edit a user (login, name, language, admin, active); the user as read is accepted',
          params: idParams,
          body: adminUserUpdateBody,
          response: { 200: adminUserWire },
        },
      },
      async (req) => updateUser(ctx, actorOf(req), req.params.id, req.body),
    );
    app.put(
      '/api/admin/users/:id/password',
      {
        config,
        schema: {
          tags,
          summary: "Set or reset a user's password; ends that user's sessions and API tokens",
          params: idParams,
          body: adminUserPasswordBody,
          response: { 200: okReply },
        },
      },
      async (req) => {
        await setUserPassword(ctx, actorOf(req), req.params.id, req.body.password);
        return { error: 0 as const };
      },
    );
    app.delete(
      '/api/admin/users/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Delete a user with their sessions, tokens and fleet memberships',
          params: idParams,
          response: { 200: okReply },
        },
      },
      async (req) => {
        await deleteUser(ctx, actorOf(req), req.params.id);
        return { error: 0 as const };
      },
    );
  };
