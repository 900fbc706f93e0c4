import {
  binaryReply,
  REPORT_TYPES,
  reportExportQuery,
  reportParams,
  reportQuery,
  reportReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { exportReport } from './export/index.js';
import { ExportAborted } from './export/table.js';
import { buildReport } from './service.js';

/** The reports of PRODUCT.md "Reports" (spec §2 /reports; core contracts/reports.ts). */
export const reportRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['reports'];
    const types = REPORT_TYPES.join(', ');

    app.get(
      '/api/fleets/:fid/reports/:type',
      {
        config: { need: 'report.view' },
        schema: {
          tags,
          summary: `A report (${types}) of a period: columns, rows, totals and chart; core units (km, fleet fuel unit)`,
          params: reportParams,
          querystring: reportQuery,
          response: { 200: reportReply },
        },
      },
      async (req) =>
        (await buildReport(ctx, actorOf(req), req.params.fid, req.params.type, req.query)).report,
    );

    app.get(
      '/api/fleets/:fid/reports/:type/export',
      {
        config: { need: 'report.view' },
        // The file is sent whole with its Content-Length (xlsx and pdf are compressed already).
        compress: false,
        schema: {
          tags,
          summary:
            'A report as a file (xlsx, csv or pdf) in the caller’s language and formats, distances in the fleet’s unit',
          params: reportParams,
          querystring: reportExportQuery,
          response: { 200: binaryReply },
        },
      },
      async (req, reply) => {
        // Stop generating when the client goes away before the file is sent.
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
      },
    );
  };
