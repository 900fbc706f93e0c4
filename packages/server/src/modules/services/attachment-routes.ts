import multipart from '@fastify/multipart';
import {
  binaryReply,
  fleetItemParams,
  SERVICE_ATTACHMENT_BYTES_MAX,
  SERVICE_ATTACHMENTS_MAX,
  serviceAttachmentDeleteReply,
  serviceAttachmentListReply,
  serviceAttachmentParams,
  serviceAttachmentUploadBody,
} from '@fleetkeep/core';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import {
  contentDisposition,
  deleteAttachment,
  listAttachments,
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
      limits: {
        fileSize: SERVICE_ATTACHMENT_BYTES_MAX,
        files: SERVICE_ATTACHMENTS_MAX * 5,
        fields: 20,
        parts: SERVICE_ATTACHMENTS_MAX * 5 + 20,
      },
    });
    const app = zApp(fastify);
    const tags = ['services'];
    const base = '/api/fleets/:fid/services/:id/attachments';

    app.get(
      base,
      {
        config: { need: 'service.view' },
        schema: {
          tags,
          summary: 'Attachments of a service',
          params: fleetItemParams,
          response: { 200: serviceAttachmentListReply },
        },
      },
      async (req) => listAttachments(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.post(
      base,
      {
        config: { need: 'service.manage' },
        bodyLimit: SERVICE_ATTACHMENT_BYTES_MAX + MULTIPART_SLACK,
        schema: {
          tags,
          summary: 'Upload files (multipart/form-data): at most 20 files and 32 MB per service',
          params: fleetItemParams,
          consumes: ['multipart/form-data', 'application/json'],
          // The parts are read by the handler; any other body is refused there with error 4.
          body: serviceAttachmentUploadBody,
          response: { 200: serviceAttachmentListReply },
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
        schema: {
          tags,
          summary: 'Download an attachment with its original name',
          params: serviceAttachmentParams,
          response: { 200: binaryReply },
        },
      },
      async (req, reply) => {
        const file = await readAttachment(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid);
        // The stored bytes as they are (binaryReply documents them; a Buffer is never serialised).
        return (reply as FastifyReply)
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
        schema: {
          tags,
          summary: 'Delete an attachment',
          params: serviceAttachmentParams,
          response: { 200: serviceAttachmentDeleteReply },
        },
      },
      async (req) => deleteAttachment(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid),
    );
  };
