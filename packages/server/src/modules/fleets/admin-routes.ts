import { fleetsRoutes as fleets } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { createFleet } from './create.js';
import {
  bindableUnits,
  changeUnitDevice,
  createPerson,
  createUnit,
  deletePerson,
  deleteUnit,
} from './objects-admin.js';

/**
 * Creating fleets and service objects, and removing objects (PRODUCT.md "Fleets", "Service objects");
 * descriptors in core routes/fleets.ts.
 */
export const fleetAdminRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, fleets.create, async (req) => createFleet(ctx, actorOf(req), req.body));
    serve(app, fleets.createUnit, async (req) => createUnit(ctx, actorOf(req), req.params.id, req.body));
    serve(app, fleets.changeUnitDevice, async (req) =>
      changeUnitDevice(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, fleets.removeUnit, async (req) =>
      deleteUnit(ctx, actorOf(req), req.params.fid, req.params.id, req.query.archive === 'delete'),
    );
    serve(app, fleets.bindableUnits, async (req) => bindableUnits(ctx, actorOf(req), req.params.id));
    const people = [
      ['drivers', fleets.createDriver, fleets.removeDriver],
      ['trailers', fleets.createTrailer, fleets.removeTrailer],
    ] as const;
    for (const [kind, create, remove] of people) {
      serve(app, create, async (req) => createPerson(ctx, actorOf(req), req.params.id, kind, req.body));
      serve(
        app,
        remove,
        async (req) => deletePerson(ctx, actorOf(req), kind, req.params.id, req.query.archive === 'delete'),
        { fleetFrom: { record: kind, param: 'id' } },
      );
    }
  };
