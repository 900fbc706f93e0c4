import { servicesRoutes } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerAttachmentRoutes } from '../attachments/http.js';
import { serviceAttachments } from './attachments.js';

/** Attachments of a service (spec §5 "Attachments"); multipart is registered in this scope only. */
export const attachmentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    await registerAttachmentRoutes(fastify, ctx, serviceAttachments, {
      list: servicesRoutes.attachments,
      upload: servicesRoutes.attachmentUpload,
      download: servicesRoutes.attachmentDownload,
      remove: servicesRoutes.attachmentRemove,
    });
  };
