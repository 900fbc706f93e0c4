import {
  fleetCreateBody,
  fleetItemParams,
  fleetWire,
  idParams,
  objectDeleteQuery,
  objectDeleteReply,
  personCreateBody,
  personWire,
  unitCreateBody,
  unitDeviceBody,
  unitListReply,
  unitWire,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
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
 * Creating fleets and service objects, and removing objects (issue 9 "Fleets", "Service objects");
 * contracts in core contracts/fleets.ts.
 */
export const fleetAdminRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    app.post(
      '/api/fleets',
      {
        config: { need: 'account.admin' },
        schema: {
          tags: ['fleet'],
          summary:
            "Create a fleet in an account within the caller's subtree (default the caller's); the creator joins with every right",
          body: fleetCreateBody,
          response: { 200: fleetWire },
        },
      },
      async (req) => createFleet(ctx, actorOf(req), req.body),
    );

    const tags = ['service objects'];
    app.post(
      '/api/fleets/:id/units',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary:
            'Create a unit in the fleet (admin); the device identifier is unique (409), a starting counter is recorded as a correction',
          params: idParams,
          body: unitCreateBody,
          response: { 200: unitWire },
        },
      },
      async (req) => createUnit(ctx, actorOf(req), req.params.id, req.body),
    );
    app.put(
      '/api/fleets/:fid/units/:id/device',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary:
            "Change a unit's device identifier (admin), e.g. after its tracker was replaced; unique across the installation (409)",
          params: fleetItemParams,
          body: unitDeviceBody,
          response: { 200: unitWire },
        },
      },
      async (req) => changeUnitDevice(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      '/api/fleets/:fid/units/:id',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary:
            'Delete a unit (admin): its assignments and open services go, its archived services stay unless archive=delete',
          params: fleetItemParams,
          querystring: objectDeleteQuery,
          response: { 200: objectDeleteReply },
        },
      },
      async (req) =>
        deleteUnit(ctx, actorOf(req), req.params.fid, req.params.id, req.query.archive === 'delete'),
    );
    app.get(
      '/api/fleets/:id/user/units',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary: 'Units the admin can bind to the fleet: of its account, in this fleet or in none',
          params: idParams,
          response: { 200: unitListReply },
        },
      },
      async (req) => bindableUnits(ctx, actorOf(req), req.params.id),
    );
    for (const kind of ['drivers', 'trailers'] as const) {
      const one = kind.slice(0, -1);
      app.post(
        `/api/fleets/:id/${kind}`,
        {
          config: { need: 'fleet.admin' },
          schema: {
            tags,
            summary: `Create a ${one} in the fleet (admin)`,
            params: idParams,
            body: personCreateBody,
            response: { 200: personWire },
          },
        },
        async (req) => createPerson(ctx, actorOf(req), req.params.id, kind, req.body),
      );
      app.delete(
        `/api/${kind}/:id`,
        {
          config: { need: 'fleet.admin', fleetFrom: { record: kind, param: 'id' } },
          schema: {
            tags,
            summary: `Delete a ${one} (admin): its assignments and open services go, its archived services stay unless archive=delete`,
            params: idParams,
            querystring: objectDeleteQuery,
            response: { 200: objectDeleteReply },
          },
        },
        async (req) => deletePerson(ctx, actorOf(req), kind, req.params.id, req.query.archive === 'delete'),
      );
    }
  };
