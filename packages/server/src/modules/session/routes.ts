import {
  okReply,
  sessionAuthQuery,
  sessionAuthReply,
  sessionLoginBody,
  sessionLoginReply,
  sessionPropertyBody,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { authReply } from './auth-reply.js';
import { login, logout, openSession, setSessionProperty } from './service.js';

/** DESIGN §4: login, auth, logout and the platform's session property call; contracts in core contracts/session.ts. */
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
          summary:
            'Log in with user name and password; returns a login token. A wrong name or password is 401 error 8; a right password of a user whose account (or an account above it) is suspended is 403 `{error: 7, reason: "Account is suspended"}`',
          body: sessionLoginBody,
          response: { 200: sessionLoginReply },
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
          querystring: sessionAuthQuery,
          response: { 200: sessionAuthReply },
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
        schema: {
          tags: ['session'],
          summary: 'End the session and revoke its login token',
          response: { 200: okReply },
        },
      },
      async (req) => {
        await logout(ctx, actorOf(req));
        return { error: 0 } as const;
      },
    );

    app.post(
      '/api/remoteapi/core/set_session_property',
      {
        config: { need: 'user.self' },
        schema: {
          tags: ['session'],
          summary: 'Set a session property (spec §7)',
          body: sessionPropertyBody,
          response: { 200: okReply },
        },
      },
      async (req) => {
        await setSessionProperty(ctx, actorOf(req), req.body.prop_name, req.body.prop_value);
        return { error: 0 } as const;
      },
    );
  };
