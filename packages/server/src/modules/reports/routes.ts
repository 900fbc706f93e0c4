import { reportsRoutes as reports } from '@fleetkeep/core';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { type ServedRequest, serve } from '../../http/serve.js';
import { exportReport } from './export/index.js';
import { ExportAborted } from './export/table.js';
import { buildReport } from './service.js';

/** The reports of PRODUCT.md "Reports" (spec §2 /reports; core routes/reports.ts). */
export const reportRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    /** Generates the export and sends it whole; generation stops when the client goes away. */
    const sendExport = async (req: ServedRequest<typeof reports.export>, reply: FastifyReply) => {
      const abort = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const { format, ...query } = req.query;
      let file: Awaited<ReturnType<typeof exportReport>>;
      try {
        file = await exportReport(
          ctx,
          actorOf(req),
          req.params.fid,
          req.params.type,
          query,
          format,
          abort.signal,
        );
      } catch (err) {
        if (!(err instanceof ExportAborted)) throw err;
        // Nobody is listening: no reply, no error log.
        reply.hijack();
        reply.raw.destroy();
        return reply;
      }
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('content-length', file.data.length)
        .send(file.data as never);
    };

    serve(
      app,
      reports.get,
      async (req) =>
        (await buildReport(ctx, actorOf(req), req.params.fid, req.params.type, req.query)).report,
    );
    // The file is sent whole with its Content-Length (xlsx and pdf are compressed already).
    serve(app, reports.export, sendExport, { compress: false });
  };
