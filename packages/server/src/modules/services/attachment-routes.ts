import multipart from '@fastify/multipart';
import { fleetItemParams, pathId } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import {
  contentDisposition,
  deleteAttachment,
  listAttachments,
  MAX_FILES,
  MAX_TOTAL_BYTES,
  readAttachment,
  safeContentType,
  uploadAttachments,
} from './attachments.js';

/** Upload overhead allowed beyond the files themselves (part headers, boundaries). */
const MULTIPART_SLACK = 1024 * 1024;

/** Attachments of a service; multipart is registered in this scope only. */
export const attachmentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    await fastify.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: MAX_TOTAL_BYTES, files: MAX_FILES * 5, fields: 20, parts: MAX_FILES * 5 + 20 },
    });
    const app = zApp(fastify);
    const tags = ['services'];
    const base = '/api/fleets/:fid/services/:id/attachments';
    const itemParams = z.object({ fid: pathId, id: pathId, aid: pathId });

    app.get(
      base,
      {
        config: { need: 'service.view' },
        schema: { tags, summary: 'Attachments of a service', params: fleetItemParams },
      },
      async (req) => listAttachments(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.post(
      base,
      {
        config: { need: 'service.manage' },
        bodyLimit: MAX_TOTAL_BYTES + MULTIPART_SLACK,
        schema: {
          tags,
          summary: 'Upload files (multipart/form-data): at most 20 files and 32 MB per service',
          params: fleetItemParams,
          consumes: ['multipart/form-data', 'application/json'],
          // The parts are read by the handler; any other body is refused there with error 4.
          body: z.unknown().describe('multipart/form-data with one or more file parts'),
        },
      },
      async (req) =>
        uploadAttachments(
          ctx,
          actorOf(req),
          req.params.fid,
          req.params.id,
          req.isMultipart() ? req.parts() : undefined,
        ),
    );
    app.get(
      `${base}/:aid`,
      {
        config: { need: 'service.view' },
        schema: { tags, summary: 'Download an attachment with its original name', params: itemParams },
      },
      async (req, reply) => {
        const file = await readAttachment(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid);
        return reply
          .header('content-type', safeContentType(file.content_type))
          .header('content-disposition', contentDisposition(file.name))
          .header('x-content-type-options', 'nosniff')
          .send(file.data);
      },
    );
    app.delete(
      `${base}/:aid`,
      {
        config: { need: 'service.manage' },
        schema: { tags, summary: 'Delete an attachment', params: itemParams },
      },
      async (req) => deleteAttachment(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid),
    );
  };
