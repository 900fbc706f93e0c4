import {
  binaryReply,
  fleetItemParams,
  serviceAttachmentDeleteReply,
  serviceAttachmentListReply,
  serviceAttachmentParams,
  serviceAttachmentUploadBody,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerAttachmentRoutes } from '../attachments/http.js';
import { serviceAttachments } from './attachments.js';

/** Attachments of a service; multipart is registered in this scope only. */
export const attachmentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const tags = ['services'];
    await registerAttachmentRoutes(
      fastify,
      ctx,
      serviceAttachments,
      '/api/fleets/:fid/services/:id/attachments',
      {
        list: {
          config: { need: 'service.view' },
          schema: {
            tags,
            summary: 'Attachments of a service',
            params: fleetItemParams,
            response: { 200: serviceAttachmentListReply },
          },
        },
        upload: {
          config: { need: 'service.manage' },
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
        download: {
          config: { need: 'service.view' },
          schema: {
            tags,
            summary: 'Download an attachment with its original name',
            params: serviceAttachmentParams,
            response: { 200: binaryReply },
          },
        },
        remove: {
          config: { need: 'service.manage' },
          schema: {
            tags,
            summary: 'Delete an attachment',
            params: serviceAttachmentParams,
            response: { 200: serviceAttachmentDeleteReply },
          },
        },
      },
    );
  };
