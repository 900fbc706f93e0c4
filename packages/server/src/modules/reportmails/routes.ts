import {
  actionBody,
  fleetItemParams,
  fleetParams,
  okReply,
  reportMailBody,
  reportMailListReply,
  reportMailSendReply,
  reportMailUpdateBody,
  reportMailWire,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import {
  createReportMail,
  deleteReportMail,
  getReportMail,
  listReportMails,
  sendReportMailNow,
  updateReportMail,
} from './service.js';

/**
 * Report mails (spec §7 "Report mails"; core contracts/reportmails.ts): read with `report.view`, set up
 * and sent with `report.mail` (decision 1).
 */
export const reportMailRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['reports'];
    const read = { need: 'report.view' as const };
    const write = { need: 'report.mail' as const };
    const path = '/api/fleets/:fid/reportmails';

    app.get(
      path,
      {
        config: read,
        schema: {
          tags,
          summary: 'The fleet’s report mails, by name',
          params: fleetParams,
          response: { 200: reportMailListReply },
        },
      },
      async (req) => listReportMails(ctx, actorOf(req), req.params.fid),
    );
    app.post(
      path,
      {
        config: write,
        schema: {
          tags,
          summary: 'Creates a report mail (recipients, report, format, schedule, language)',
          params: fleetParams,
          body: reportMailBody,
          response: { 200: reportMailWire },
        },
      },
      async (req) => createReportMail(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.get(
      `${path}/:id`,
      {
        config: read,
        schema: {
          tags,
          summary: 'One report mail with its last send',
          params: fleetItemParams,
          response: { 200: reportMailWire },
        },
      },
      async (req) => getReportMail(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.put(
      `${path}/:id`,
      {
        config: write,
        schema: {
          tags,
          summary: 'Changes a report mail (any of its fields; the mail as read is accepted)',
          params: fleetItemParams,
          body: reportMailUpdateBody,
          response: { 200: reportMailWire },
        },
      },
      async (req) => updateReportMail(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      `${path}/:id`,
      {
        config: write,
        schema: {
          tags,
          summary: 'Deletes a report mail and its send log',
          params: fleetItemParams,
          response: { 200: okReply },
        },
      },
      async (req) => deleteReportMail(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.post(
      `${path}/:id/send`,
      {
        config: write,
        schema: {
          tags,
          summary: 'Sends a report mail now (the period before today); answers the result',
          params: fleetItemParams,
          body: actionBody,
          response: { 200: reportMailSendReply },
        },
      },
      async (req) => sendReportMailNow(ctx, actorOf(req), req.params.fid, req.params.id),
    );
  };
