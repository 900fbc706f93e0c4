import { fleetsRoutes as fleets } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { fleetUsers, listFleets, setFleetUsers, updateFleet } from './service.js';

/** Fleet settings and the access list (spec §7 "Fleet"); descriptors in core routes/fleets.ts. */
export const fleetRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, fleets.list, async (req) => listFleets(ctx, actorOf(req)));
    serve(app, fleets.update, async (req) => updateFleet(ctx, actorOf(req), req.params.id, req.body));
    serve(app, fleets.users, async (req) => fleetUsers(ctx, actorOf(req), req.params.id));
    serve(app, fleets.setUsers, async (req) =>
      setFleetUsers(ctx, actorOf(req), req.params.id, req.body.users),
    );
  };
