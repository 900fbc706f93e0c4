import { fleetsRoutes as fleets } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { ReplyCache, sendTagged } from '../../http/etag.js';
import { serve } from '../../http/serve.js';
import {
  bindablePeople,
  fleetPeople,
  fleetUnitsRead,
  pullCounters,
  setEntities,
  updatePerson,
  updateUnit,
} from './objects.js';

/** Service objects of a fleet (spec §7 "Fleet"); descriptors in core routes/fleets.ts. */
export const objectRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    // Bodies of the units list, one per fleet and `units` revision (http/etag.ts, migration 026).
    const unitLists = new ReplyCache();

    serve(app, fleets.setEntities, async (req) => setEntities(ctx, actorOf(req), req.params.id, req.body));
    serve(
      app,
      fleets.units,
      async (req, reply) =>
        sendTagged(
          ctx,
          unitLists,
          req,
          reply,
          req.params.id,
          await fleetUnitsRead(ctx, actorOf(req), req.params.id),
        ),
      // The units revision is read with the access revision, in one round trip (http/auth-hook.ts).
      { taggedBy: ['units'] },
    );
    const people = [
      ['drivers', fleets.drivers, fleets.bindableDrivers, fleets.updateDriver],
      ['trailers', fleets.trailers, fleets.bindableTrailers, fleets.updateTrailer],
    ] as const;
    for (const [kind, list, bindable, update] of people) {
      serve(app, list, async (req) => fleetPeople(ctx, actorOf(req), req.params.id, kind));
      serve(app, bindable, async (req) => bindablePeople(ctx, actorOf(req), req.params.id, kind));
      serve(app, update, async (req) => updatePerson(ctx, actorOf(req), kind, req.params.id, req.body), {
        fleetFrom: { record: kind, param: 'id' },
      });
    }
    serve(app, fleets.updateUnit, async (req) =>
      updateUnit(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, fleets.pullCounters, async (req) =>
      pullCounters(ctx, actorOf(req), req.params.id, req.body?.units),
    );
  };
