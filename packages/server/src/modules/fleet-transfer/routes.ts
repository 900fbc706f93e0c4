import {
  FLEET_TRANSFER_BODY_MAX,
  type FleetTransferCsvCollection,
  LUBELOGGER_FILE_MAX,
  LUBELOGGER_FILES_MAX,
  fleetTransferRoutes as transfer,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { contentDisposition } from '../attachments/store.js';
import { exportCollectionCsv, exportFleet } from './export.js';
import { commitLubeLogger, parseLubeLogger } from './lubelogger-service.js';
import { importFleet } from './service.js';

const collectionOf = (file: string) => file.slice(0, -'.csv'.length) as FleetTransferCsvCollection;

/** LubeLogger bodies: every file at its cap, as JSON text (escapes may double it), plus the mapping. */
const LUBELOGGER_BODY_MAX = LUBELOGGER_FILES_MAX * LUBELOGGER_FILE_MAX * 2 + 1024 * 1024;

/**
 * Fleet export and import, and the LubeLogger migration (spec §2 `/migration/{fleetId}`, §6; core
 * routes/fleet-transfer.ts): `fleet.admin` on the fleet of the path, the source of an export, the target
 * of an import.
 */
export const fleetTransferRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, transfer.exportDocument, async (req, reply) => {
      const file = await exportFleet(ctx, actorOf(req), req.params.fid);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', contentDisposition(file.name))
        .send(file.stream as never);
    });
    serve(app, transfer.exportCsv, async (req, reply) => {
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
    });
    serve(
      app,
      transfer.importDocument,
      async (req) => importFleet(ctx, actorOf(req), req.params.fid, req.body),
      {
        bodyLimit: FLEET_TRANSFER_BODY_MAX,
      },
    );
    serve(
      app,
      transfer.lubeLoggerParse,
      async (req) => parseLubeLogger(ctx, actorOf(req), req.params.fid, req.body),
      {
        bodyLimit: LUBELOGGER_BODY_MAX,
      },
    );
    serve(
      app,
      transfer.lubeLoggerCommit,
      async (req) => commitLubeLogger(ctx, actorOf(req), req.params.fid, req.body),
      {
        bodyLimit: LUBELOGGER_BODY_MAX,
      },
    );
  };
