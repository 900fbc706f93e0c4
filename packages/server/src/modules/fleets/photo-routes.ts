import { fleetsRoutes } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerAttachmentRoutes } from '../attachments/http.js';
import { unitPhotos } from './photo.js';

/** The unit photo's routes (docs/product.md "The vehicle profile"); multipart in this scope only. */
export const unitPhotoRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    await registerAttachmentRoutes(fastify, ctx, unitPhotos, {
      list: fleetsRoutes.unitPhotos,
      upload: fleetsRoutes.unitPhotoUpload,
      download: fleetsRoutes.unitPhotoDownload,
      remove: fleetsRoutes.unitPhotoRemove,
    });
  };
