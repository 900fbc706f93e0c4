import { id, idParams, Limits, pathId } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import {
  bindablePeople,
  fleetPeople,
  fleetUnits,
  pullCounters,
  setEntities,
  updatePerson,
  updateUnit,
} from './objects.js';

const ids = z.array(id).max(100000);
const customValues = z.array(z.object({ id, v: z.string().max(Limits.descriptionMax) })).max(200);
const counter = z.number().min(0).max(1e9);

const personPatch = z
  .object({
    n: z.string().trim().min(1).max(Limits.stringMax),
    ds: z.string().max(Limits.descriptionMax),
    c: z.string().max(Limits.stringMax),
    cf: customValues,
  })
  .partial();

export const objectRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['service objects'];
    const fleetParams = z.object({ id: pathId });

    app.put(
      '/api/fleets/:id/entities',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary: 'Bind units, drivers and trailers to the fleet (admin)',
          params: fleetParams,
          body: z.object({ units: ids.optional(), drivers: ids.optional(), trailers: ids.optional() }),
        },
      },
      async (req) => setEntities(ctx, actorOf(req), req.params.id, req.body),
    );
    app.get(
      '/api/fleets/:id/units',
      {
        config: { need: 'fleet.member' },
        schema: { tags, summary: 'Units of the fleet', params: fleetParams },
      },
      async (req) => fleetUnits(ctx, actorOf(req), req.params.id),
    );
    for (const kind of ['drivers', 'trailers'] as const) {
      app.get(
        `/api/fleets/:id/${kind}`,
        {
          config: { need: 'fleet.member' },
          schema: { tags, summary: `${kind} of the fleet`, params: fleetParams },
        },
        async (req) => fleetPeople(ctx, actorOf(req), req.params.id, kind),
      );
      app.get(
        `/api/fleets/:id/user/${kind}`,
        {
          config: { need: 'fleet.admin' },
          schema: { tags, summary: `${kind} the admin can bind to the fleet`, params: fleetParams },
        },
        async (req) => bindablePeople(ctx, actorOf(req), req.params.id, kind),
      );
      app.put(
        `/api/${kind}/:id`,
        {
          config: { need: 'object.edit', fleetFrom: { record: kind, param: 'id' } },
          schema: { tags, summary: `Update a ${kind.slice(0, -1)}`, params: idParams, body: personPatch },
        },
        async (req) => updatePerson(ctx, actorOf(req), kind, req.params.id, req.body),
      );
    }
    app.put(
      '/api/fleets/:fid/units/:id',
      {
        config: { need: 'object.edit' },
        schema: {
          tags,
          summary: 'Update a unit: name (admin), unit type, counter corrections (recorded), custom fields',
          params: z.object({ fid: pathId, id: pathId }),
          body: z
            .object({
              nm: z.string().trim().min(1).max(Limits.stringMax),
              ut: id.nullable(),
              cnm: counter,
              cneh: counter,
              cf: customValues,
            })
            .partial(),
        },
      },
      async (req) => updateUnit(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.post(
      '/api/fleets/:id/pullcounters',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary: 'Count the history before joining into the actual counters (admin)',
          params: fleetParams,
          body: z.object({ units: ids.optional() }).optional(),
        },
      },
      async (req) => pullCounters(ctx, actorOf(req), req.params.id, req.body?.units),
    );
  };
