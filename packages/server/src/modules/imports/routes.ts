import {
  fleetParams,
  IMPORT_FILE_BYTES_MAX,
  IMPORT_KINDS,
  importFileBody,
  importFleetParams,
  importParseQuery,
  importParseReply,
  importResultReply,
  importRowsBody,
  intervalImportBody,
  intervalImportListReply,
  intervalImportReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { IMPORT_NEEDS, importIntervalRows, importRows, intervalImportList, parseUpload } from './service.js';

/** A mapped import may carry 10,000 rows of text: more than the default JSON body limit. */
const ROWS_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The import flow (issue 12; spec §2 `/…/import`, §5, §7 `GET/POST /fleets/{id}/import`). Per kind, with
 * the kind's need: `POST /api/fleets/{fid}/import/{kind}/parse` (the file's bytes as
 * application/octet-stream → text cells) and `POST /api/fleets/{fid}/import/{kind}` (mapped text rows →
 * checked again and written, all or none).
 */
export const importRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    // Raw file bytes, in this plugin's scope only; the auth hook ran before the body is read (onRequest).
    fastify.addContentTypeParser(
      'application/octet-stream',
      { parseAs: 'buffer', bodyLimit: IMPORT_FILE_BYTES_MAX },
      (_req, body, done) => done(null, body),
    );
    const app = zApp(fastify);
    const tags = ['imports'];
    app.get(
      '/api/fleets/:id/import',
      {
        config: { need: 'interval.manage' },
        schema: {
          tags,
          summary: "The fleet's intervals as interval import rows (spec §7)",
          params: importFleetParams,
          response: { 200: intervalImportListReply },
        },
      },
      async (req) => intervalImportList(ctx, actorOf(req), req.params.id),
    );
    app.post(
      '/api/fleets/:id/import',
      {
        config: { need: 'interval.manage' },
        schema: {
          tags,
          summary: 'Import intervals; all rows or none; answers the imported intervals (spec §7)',
          params: importFleetParams,
          body: intervalImportBody,
          response: { 200: intervalImportReply },
        },
      },
      async (req) => importIntervalRows(ctx, actorOf(req), req.params.id, req.body.intervals),
    );
    for (const kind of IMPORT_KINDS) {
      app.post(
        `/api/fleets/:fid/import/${kind}/parse`,
        {
          config: { need: IMPORT_NEEDS[kind] },
          bodyLimit: IMPORT_FILE_BYTES_MAX,
          schema: {
            tags,
            summary: `Read a CSV or XLSX file (raw bytes, application/octet-stream) into text cells for the ${kind} import`,
            consumes: ['application/octet-stream'],
            params: fleetParams,
            body: importFileBody,
            querystring: importParseQuery,
            response: { 200: importParseReply },
          },
        },
        async (req) => parseUpload(ctx, actorOf(req), req.params.fid, kind, req.body, req.query),
      );
      app.post(
        `/api/fleets/:fid/import/${kind}`,
        {
          config: { need: IMPORT_NEEDS[kind] },
          bodyLimit: ROWS_BODY_LIMIT,
          schema: {
            tags,
            summary: `Import mapped ${kind} rows; checked by the preview's rules; all rows or none`,
            params: fleetParams,
            body: importRowsBody,
            response: { 200: importResultReply },
          },
        },
        async (req) => importRows(ctx, actorOf(req), req.params.fid, kind, req.body),
      );
    }
  };
