import { id, idParams, Limits } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { fleetUsers, listFleets, setFleetUsers, updateFleet } from './service.js';

const fleetPatch = z
  .object({
    n: z.string().trim().min(1).max(Limits.stringMax),
    tz: z.number().int().min(-2147483648).max(Limits.intUnsigned),
    cur: z.string().max(16),
    ms: z.union([z.literal(0), z.literal(1)]),
    fm: z.union([z.literal(1), z.literal(2)]),
  })
  .partial();

export const fleetRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['fleet'];
    app.get(
      '/api/fleets',
      { config: { need: 'user.self' }, schema: { tags, summary: 'Fleets of the user with their acl' } },
      async (req) => listFleets(ctx, actorOf(req)),
    );
    app.put(
      '/api/fleets/:id',
      {
        config: { need: 'fleet.admin' },
        schema: { tags, summary: 'Change fleet settings (admin)', params: idParams, body: fleetPatch },
      },
      async (req) => updateFleet(ctx, actorOf(req), req.params.id, req.body),
    );
    app.get(
      '/api/fleets/:id/users',
      {
        config: { need: 'fleet.admin' },
        schema: { tags, summary: 'Fleet access list (admin)', params: idParams },
      },
      async (req) => fleetUsers(ctx, actorOf(req), req.params.id),
    );
    app.put(
      '/api/fleets/:id/users',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary: 'Replace the fleet access list (admin); acl dependencies of spec §6 are enforced',
          params: idParams,
          body: z.object({
            users: z.array(z.object({ id, acl: z.number().int().min(0).max(1023) })).max(10000),
          }),
        },
      },
      async (req) => setFleetUsers(ctx, actorOf(req), req.params.id, req.body.users),
    );
  };
