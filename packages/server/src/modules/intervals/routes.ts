import {
  fleetItemParams,
  fleetParams,
  intervalBasesBody,
  intervalBasesReply,
  intervalCreateBody,
  intervalImportBody,
  intervalListReply,
  intervalUnitsBody,
  intervalUnitsReply,
  intervalUpdateBody,
  intervalWire,
  okReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { intervalUnits, objectBases, setIntervalUnits, setObjectBases } from './assignments.js';
import { importIntervals } from './batch.js';
import { createInterval, deleteInterval, listIntervals, updateInterval } from './service.js';

/** Intervals and their assignments (spec §7 "Intervals"; PRODUCT.md "Intervals"). */
export const intervalRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['intervals'];
    const base = '/api/fleets/:fid/intervals';
    app.get(
      base,
      {
        config: { need: 'interval.view' },
        schema: {
          tags,
          summary: 'Intervals of the fleet with assignments and line items',
          params: fleetParams,
          response: { 200: intervalListReply },
        },
      },
      async (req) => listIntervals(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      base,
      {
        config: { need: 'interval.manage' },
        schema: {
          tags,
          summary: 'Create an interval',
          params: fleetParams,
          body: intervalCreateBody,
          response: { 200: intervalWire },
        },
      },
      async (req) => createInterval(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      `${base}/batch`,
      {
        config: { need: 'interval.manage' },
        schema: {
          tags,
          summary: 'Import intervals with assignments; all rows or none (spec §5 "Import: intervals")',
          params: fleetParams,
          body: intervalImportBody,
          response: { 200: intervalListReply },
        },
      },
      async (req) => importIntervals(ctx, actorOf(req), req.params.fid, req.body.intervals),
    );
    app.put(
      `${base}/:id`,
      {
        config: { need: 'interval.manage' },
        schema: {
          tags,
          summary: 'Change an interval; the interval as read is accepted (id, c, tm ignored)',
          params: fleetItemParams,
          body: intervalUpdateBody,
          response: { 200: intervalWire },
        },
      },
      async (req) => updateInterval(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      `${base}/:id`,
      {
        config: { need: 'interval.manage' },
        schema: {
          tags,
          summary: 'Delete an interval, its assignments and its Due services',
          params: fleetItemParams,
          response: { 200: okReply },
        },
      },
      async (req) => deleteInterval(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.get(
      `${base}/:id/units`,
      {
        config: { need: 'interval.view' },
        schema: {
          tags,
          summary: 'Objects assigned to the interval with baselines',
          params: fleetItemParams,
          response: { 200: intervalUnitsReply },
        },
      },
      async (req) => intervalUnits(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.put(
      `${base}/:id/units`,
      {
        config: { need: 'interval.manage' },
        schema: {
          tags,
          summary: 'Replace the assigned objects; new baselines default to current counters and today',
          params: fleetItemParams,
          body: intervalUnitsBody,
          response: { 200: intervalUnitsReply },
        },
      },
      async (req) => setIntervalUnits(ctx, actorOf(req), req.params.fid, req.params.id, req.body.units),
    );
    for (const kind of ['units', 'drivers', 'trailers'] as const) {
      app.get(
        `/api/fleets/:fid/${kind}/:id/bases`,
        {
          config: { need: 'interval.view' },
          schema: {
            tags,
            summary: `Interval baselines of one of the ${kind}`,
            params: fleetItemParams,
            response: { 200: intervalBasesReply },
          },
        },
        async (req) => objectBases(ctx, actorOf(req), req.params.fid, kind, req.params.id),
      );
      app.put(
        `/api/fleets/:fid/${kind}/:id/bases`,
        {
          config: { need: 'interval.manage' },
          schema: {
            tags,
            summary: `Set interval baselines of one of the ${kind}`,
            params: fleetItemParams,
            body: intervalBasesBody,
            response: { 200: intervalBasesReply },
          },
        },
        async (req) => setObjectBases(ctx, actorOf(req), req.params.fid, kind, req.params.id, req.body.bases),
      );
    }
  };
