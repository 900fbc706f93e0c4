import {
  driverListReply,
  fleetEntitiesBody,
  fleetEntitiesReply,
  fleetItemParams,
  fleetPullBody,
  idParams,
  personUpdateBody,
  personWire,
  trailerListReply,
  unitListReply,
  unitUpdateBody,
  unitWire,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { ReplyCache, sendTagged } from '../../http/etag.js';
import { zApp } from '../../http/types.js';
import {
  bindablePeople,
  fleetPeople,
  fleetUnitsRead,
  pullCounters,
  setEntities,
  updatePerson,
  updateUnit,
} from './objects.js';

/** Service objects of a fleet (spec §7 "Fleet"); contracts in core contracts/fleets.ts. */
export const objectRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['service objects'];
    // Bodies of the units list, one per fleet and `units` revision (http/etag.ts, migration 026).
    const unitLists = new ReplyCache();

    app.put(
      '/api/fleets/:id/entities',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary: 'Bind units, drivers and trailers to the fleet (admin)',
          params: idParams,
          body: fleetEntitiesBody,
          response: { 200: fleetEntitiesReply },
        },
      },
      async (req) => setEntities(ctx, actorOf(req), req.params.id, req.body),
    );
    app.get(
      '/api/fleets/:id/units',
      {
        // The units revision is read with the access revision, in one round trip (http/auth-hook.ts).
        config: { need: 'fleet.member', taggedBy: ['units'] },
        schema: { tags, summary: 'Units of the fleet', params: idParams, response: { 200: unitListReply } },
      },
      async (req, reply) =>
        sendTagged(
          ctx,
          unitLists,
          req,
          reply,
          req.params.id,
          await fleetUnitsRead(ctx, actorOf(req), req.params.id),
        ),
    );
    for (const kind of ['drivers', 'trailers'] as const) {
      const listReply = kind === 'drivers' ? driverListReply : trailerListReply;
      app.get(
        `/api/fleets/:id/${kind}`,
        {
          config: { need: 'fleet.member' },
          schema: { tags, summary: `${kind} of the fleet`, params: idParams, response: { 200: listReply } },
        },
        async (req) => fleetPeople(ctx, actorOf(req), req.params.id, kind),
      );
      app.get(
        `/api/fleets/:id/user/${kind}`,
        {
          config: { need: 'fleet.admin' },
          schema: {
            tags,
            summary: `${kind} the admin can bind to the fleet`,
            params: idParams,
            response: { 200: listReply },
          },
        },
        async (req) => bindablePeople(ctx, actorOf(req), req.params.id, kind),
      );
      app.put(
        `/api/${kind}/:id`,
        {
          config: { need: 'object.edit', fleetFrom: { record: kind, param: 'id' } },
          schema: {
            tags,
            summary: `Update a ${kind.slice(0, -1)}; the record as read is accepted, an empty body changes nothing`,
            params: idParams,
            body: personUpdateBody,
            response: { 200: personWire },
          },
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
          summary:
            'Update a unit: name (admin), unit type, counter corrections (recorded), custom fields; the unit as read is accepted, an empty body changes nothing',
          params: fleetItemParams,
          body: unitUpdateBody,
          response: { 200: unitWire },
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
          params: idParams,
          body: fleetPullBody,
          response: { 200: unitListReply },
        },
      },
      async (req) => pullCounters(ctx, actorOf(req), req.params.id, req.body?.units),
    );
  };
