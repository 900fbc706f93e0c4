import {
  binaryReply,
  FLEET_TRANSFER_BODY_MAX,
  type FleetTransferCsvCollection,
  fleetParams,
  fleetTransferBody,
  fleetTransferCsvParams,
  fleetTransferReply,
  LUBELOGGER_FILE_MAX,
  LUBELOGGER_FILES_MAX,
  lubeLoggerCommitBody,
  lubeLoggerCommitReply,
  lubeLoggerParseBody,
  lubeLoggerParseReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { contentDisposition } from '../attachments/store.js';
import { exportCollectionCsv, exportFleet } from './export.js';
import { commitLubeLogger, parseLubeLogger } from './lubelogger-service.js';
import { importFleet } from './service.js';

const collectionOf = (file: string) => file.slice(0, -'.csv'.length) as FleetTransferCsvCollection;

/** LubeLogger bodies: every file at its cap, as JSON text (escapes may double it), plus the mapping. */
const LUBELOGGER_BODY_MAX = LUBELOGGER_FILES_MAX * LUBELOGGER_FILE_MAX * 2 + 1024 * 1024;

/**
 * Fleet export and import, and the LubeLogger migration (issue 12 items 3 and 4; spec §2
 * `/migration/{fleetId}`: admin on that fleet only, §6). Every route needs `fleet.admin` on the fleet of
 * the path: the source of an export, the target of an import.
 */
export const fleetTransferRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['migration'];

    app.get(
      '/api/fleets/:fid/export',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary:
            'The whole fleet as one JSON document, streamed (objects, intervals, assignments, services, archive, fuel fillings, library, custom fields, attachments in base64, meter history, notification set-ups without secrets)',
          params: fleetParams,
          response: { 200: binaryReply },
        },
      },
      async (req, reply) => {
        const file = await exportFleet(ctx, actorOf(req), req.params.fid);
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', contentDisposition(file.name))
          .send(file.stream as never);
      },
    );
    app.get(
      '/api/fleets/:fid/export/:file',
      {
        config: { need: 'fleet.admin' },
        schema: {
          tags,
          summary: 'One collection of the fleet export as CSV (core csv.ts: formula cells neutralised)',
          params: fleetTransferCsvParams,
          response: { 200: binaryReply },
        },
      },
      async (req, reply) => {
        const file = await exportCollectionCsv(
          ctx,
          actorOf(req),
          req.params.fid,
          collectionOf(req.params.file),
        );
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', contentDisposition(file.name))
          .send(file.stream as never);
      },
    );
    app.post(
      '/api/fleets/:fid/transfer',
      {
        config: { need: 'fleet.admin' },
        bodyLimit: FLEET_TRANSFER_BODY_MAX,
        schema: {
          tags,
          summary: 'Import a fleet export document into this fleet (atomic, ids remapped)',
          params: fleetParams,
          body: fleetTransferBody,
          response: { 200: fleetTransferReply },
        },
      },
      async (req) => importFleet(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      '/api/fleets/:fid/transfer/lubelogger/parse',
      {
        config: { need: 'fleet.admin' },
        bodyLimit: LUBELOGGER_BODY_MAX,
        schema: {
          tags,
          summary:
            'Preview LubeLogger CSV exports: rows mapped to services, fuel fillings and counters; vehicles',
          params: fleetParams,
          body: lubeLoggerParseBody,
          response: { 200: lubeLoggerParseReply },
        },
      },
      async (req) => parseLubeLogger(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      '/api/fleets/:fid/transfer/lubelogger',
      {
        config: { need: 'fleet.admin' },
        bodyLimit: LUBELOGGER_BODY_MAX,
        schema: {
          tags,
          summary: 'Import LubeLogger CSV exports with a vehicle → unit mapping (atomic)',
          params: fleetParams,
          body: lubeLoggerCommitBody,
          response: { 200: lubeLoggerCommitReply },
        },
      },
      async (req) => commitLubeLogger(ctx, actorOf(req), req.params.fid, req.body),
    );
  };
