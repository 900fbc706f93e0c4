import {
  IMPORT_FILE_BYTES_MAX,
  IMPORT_KINDS,
  importRoutesOfKind,
  importsRoutes as imports,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { importIntervalRows, importRows, intervalImportList, parseUpload } from './service.js';

/** A mapped import may carry 10,000 rows of text: more than the default JSON body limit. */
const ROWS_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The import flow (spec §2 `/…/import`, §5, §7 `GET/POST /fleets/{id}/import`; core routes/imports.ts).
 * Per kind, with the kind's need: the file's bytes (application/octet-stream) → text cells, then mapped
 * text rows → checked again and written, all or none.
 */
export const importRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    // Raw file bytes, in this plugin's scope only; the auth hook ran before the body is read (onRequest).
    app.addContentTypeParser(
      'application/octet-stream',
      { parseAs: 'buffer', bodyLimit: IMPORT_FILE_BYTES_MAX },
      (_req, body, done) => done(null, body),
    );
    serve(app, imports.intervalRows, async (req) => intervalImportList(ctx, actorOf(req), req.params.id));
    serve(app, imports.intervalImport, async (req) =>
      importIntervalRows(ctx, actorOf(req), req.params.id, req.body.intervals),
    );
    for (const kind of IMPORT_KINDS) {
      serve(
        app,
        importRoutesOfKind[kind].parse,
        async (req) => parseUpload(ctx, actorOf(req), req.params.fid, kind, req.body, req.query),
        { bodyLimit: IMPORT_FILE_BYTES_MAX },
      );
      serve(
        app,
        importRoutesOfKind[kind].rows,
        async (req) => importRows(ctx, actorOf(req), req.params.fid, kind, req.body),
        { bodyLimit: ROWS_BODY_LIMIT },
      );
    }
  };
