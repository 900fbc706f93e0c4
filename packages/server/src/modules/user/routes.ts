import { userRoutes as user } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { changeOwnPassword } from './password.js';
import { createToken, deleteToken, listTokens, patchSettings, switchFleet, userUnits } from './service.js';

/** The user's own calls (spec §7 "User"; core routes/user.ts). */
export const userRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, user.tokens, async (req) => listTokens(ctx, actorOf(req)));
    serve(app, user.tokenCreate, async (req) =>
      createToken(ctx, actorOf(req), req.body.description, req.body.rights),
    );
    serve(app, user.tokenRemove, async (req) => deleteToken(ctx, actorOf(req), req.params.id));
    serve(app, user.switchFleet, async (req) => switchFleet(ctx, actorOf(req), req.body.fid));
    serve(app, user.settings, async (req) => patchSettings(ctx, actorOf(req), req.body));
    serve(app, user.password, async (req) => {
      await changeOwnPassword(ctx, actorOf(req), req.body.old, req.body.new, req.ip);
      return { error: 0 } as const;
    });
    serve(app, user.units, async (req) => userUnits(ctx, actorOf(req)));
  };
