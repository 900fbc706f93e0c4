import { fuelRoutes } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerAttachmentRoutes } from '../attachments/http.js';
import { fuelAttachments } from './attachments.js';

/** Attachments of a fuel filling (spec §7 "Fuel fillings"); multipart is registered in this scope only. */
export const fuelAttachmentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    await registerAttachmentRoutes(fastify, ctx, fuelAttachments, {
      list: fuelRoutes.attachments,
      upload: fuelRoutes.attachmentUpload,
      download: fuelRoutes.attachmentDownload,
      remove: fuelRoutes.attachmentRemove,
    });
  };
