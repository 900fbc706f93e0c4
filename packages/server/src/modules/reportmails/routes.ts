import { reportmailsRoutes as reportmails } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import {
  createReportMail,
  deleteReportMail,
  getReportMail,
  listReportMails,
  sendReportMailNow,
  updateReportMail,
} from './service.js';

/**
 * Report mails (spec §7 "Report mails"; core routes/reportmails.ts): read with `report.view`, set up
 * and sent with `report.mail`.
 */
export const reportMailRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, reportmails.list, async (req) => listReportMails(ctx, actorOf(req), req.params.fid));
    serve(app, reportmails.create, async (req) =>
      createReportMail(ctx, actorOf(req), req.params.fid, req.body),
    );
    serve(app, reportmails.get, async (req) =>
      getReportMail(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, reportmails.update, async (req) =>
      updateReportMail(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, reportmails.remove, async (req) =>
      deleteReportMail(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, reportmails.send, async (req) =>
      sendReportMailNow(ctx, actorOf(req), req.params.fid, req.params.id),
    );
  };
