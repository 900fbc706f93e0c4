import multipart from '@fastify/multipart';
import {
  binaryReply,
  FUEL_ATTACHMENT_BYTES_MAX,
  FUEL_ATTACHMENTS_MAX,
  fleetItemParams,
  fuelAttachmentDeleteReply,
  fuelAttachmentListReply,
  fuelAttachmentParams,
  fuelAttachmentUploadBody,
} from '@fleetkeep/core';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { contentDisposition, safeContentType } from '../services/attachments.js';
import { deleteAttachment, listAttachments, readAttachment, uploadAttachments } from './attachments.js';

/** Upload overhead allowed beyond the files themselves (part headers, boundaries). */
const MULTIPART_SLACK = 1024 * 1024;

/** Attachments of a fuel filling (spec §7 "Fuel fillings"); multipart is registered in this scope only. */
export const fuelAttachmentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    await fastify.register(multipart, {
      throwFileSizeLimit: false,
      limits: {
        fileSize: FUEL_ATTACHMENT_BYTES_MAX,
        files: FUEL_ATTACHMENTS_MAX * 5,
        fields: 20,
        parts: FUEL_ATTACHMENTS_MAX * 5 + 20,
      },
    });
    const app = zApp(fastify);
    const tags = ['fuel fillings'];
    const base = '/api/fleets/:fid/fuel-fillings/:id/attachments';

    app.get(
      base,
      {
        config: { need: 'fuel.view' },
        schema: {
          tags,
          summary: 'Attachments of a fuel filling',
          params: fleetItemParams,
          response: { 200: fuelAttachmentListReply },
        },
      },
      async (req) => listAttachments(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.post(
      base,
      {
        config: { need: 'fuel.manage' },
        bodyLimit: FUEL_ATTACHMENT_BYTES_MAX + MULTIPART_SLACK,
        schema: {
          tags,
          summary:
            'Upload files (multipart/form-data): at most 20 files and 32 MB per fuel filling (error 2)',
          params: fleetItemParams,
          consumes: ['multipart/form-data', 'application/json'],
          // The parts are read by the handler; any other body is refused there with error 4.
          body: fuelAttachmentUploadBody,
          response: { 200: fuelAttachmentListReply },
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
        config: { need: 'fuel.view' },
        schema: {
          tags,
          summary: 'Download an attachment with its original name',
          params: fuelAttachmentParams,
          response: { 200: binaryReply },
        },
      },
      async (req, reply) => {
        const file = await readAttachment(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid);
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
        config: { need: 'fuel.manage' },
        schema: {
          tags,
          summary: 'Delete an attachment',
          params: fuelAttachmentParams,
          response: { 200: fuelAttachmentDeleteReply },
        },
      },
      async (req) => deleteAttachment(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid),
    );
  };
