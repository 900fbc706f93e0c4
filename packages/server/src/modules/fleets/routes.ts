import {
  fleetListReply,
  fleetUpdateBody,
  fleetUsersBody,
  fleetUsersReply,
  fleetWire,
  idParams,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { fleetUsers, listFleets, setFleetUsers, updateFleet } from './service.js';

/** Fleet settings and the access list (spec §7 "Fleet"); contracts in core contracts/fleets.ts. */
export const fleetRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['fleet'];
    app.get(
      '/api/fleets',
      {
        config: { need: 'user.self' },
        schema: { tags, summary: 'Fleets of the user with their acl', response: { 200: fleetListReply } },
      },
      async (req) => listFleets(ctx, actorOf(req)),
    );
    app.put(
      '/api/fleets/:id',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary:
            'Change fleet settings (admin); the fleet as read is accepted, id, acl, aid and s are ignored',
          params: idParams,
          body: fleetUpdateBody,
          response: { 200: fleetWire },
        },
      },
      async (req) => updateFleet(ctx, actorOf(req), req.params.id, req.body),
    );
    app.get(
      '/api/fleets/:id/users',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary: 'Fleet access list (admin)',
          params: idParams,
          response: { 200: fleetUsersReply },
        },
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
          body: fleetUsersBody,
          response: { 200: fleetUsersReply },
        },
      },
      async (req) => setFleetUsers(ctx, actorOf(req), req.params.id, req.body.users),
    );
  };
