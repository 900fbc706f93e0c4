import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { authReply } from './auth-reply.js';
import { login, logout, openSession, setSessionProperty } from './service.js';

/** DESIGN §4: login, auth, logout and the platform's session property call. */
export const sessionRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);

    app.post(
      '/api/login',
      {
        config: { public: true },
        schema: {
          tags: ['session'],
          summary: 'Log in with user name and password; returns a login token',
          body: z.object({ username: z.string().min(1).max(128), password: z.string().min(1).max(1024) }),
          response: { 200: z.object({ access_token: z.string() }) },
        },
      },
      async (req) => login(ctx, req.body.username, req.body.password, req.ip),
    );

    app.get(
      '/api/auth',
      {
        config: { public: true },
        schema: {
          tags: ['session'],
          summary: 'Open a session from a login or API token (spec §3 authentication reply)',
          querystring: z.object({ access_token: z.string().min(1).max(256) }),
        },
      },
      async (req) => {
        const { ssid, actor } = await openSession(ctx, req.query.access_token);
        return authReply(ctx, actor, ssid);
      },
    );

    app.get(
      '/api/logout',
      {
        config: { need: 'user.self' },
        schema: { tags: ['session'], summary: 'End the session and revoke its login token' },
      },
      async (req) => {
        await logout(ctx, actorOf(req));
        return { error: 0 };
      },
    );

    app.post(
      '/api/remoteapi/core/set_session_property',
      {
        config: { need: 'user.self' },
        schema: {
          tags: ['session'],
          summary: 'Set a session property (spec §7)',
          body: z.object({
            prop_name: z.enum(['skip_nonactive_items']),
            prop_value: z.union([z.number(), z.string()]),
          }),
        },
      },
      async (req) => {
        await setSessionProperty(ctx, actorOf(req), req.body.prop_name, req.body.prop_value);
        return { error: 0 };
      },
    );
  };
