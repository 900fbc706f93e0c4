import { sessionRoutes as session } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { authReply } from './auth-reply.js';
import { login, logout, openSession, setSessionProperty } from './service.js';

/** DESIGN §4: login, auth, logout and the platform's session property call (core routes/session.ts). */
export const sessionRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, session.login, async (req) => login(ctx, req.body.username, req.body.password, req.ip));
    serve(app, session.auth, async (req) => {
      const { ssid, actor } = await openSession(ctx, req.query.access_token);
      return authReply(ctx, actor, ssid);
    });
    serve(app, session.logout, async (req) => {
      await logout(ctx, actorOf(req));
      return { error: 0 } as const;
    });
    serve(app, session.setProperty, async (req) => {
      await setSessionProperty(ctx, actorOf(req), req.body.prop_name, req.body.prop_value);
      return { error: 0 } as const;
    });
  };
