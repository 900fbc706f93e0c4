import {
  binaryReply,
  fleetItemParams,
  fuelAttachmentDeleteReply,
  fuelAttachmentListReply,
  fuelAttachmentParams,
  fuelAttachmentUploadBody,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerAttachmentRoutes } from '../attachments/http.js';
import { fuelAttachments } from './attachments.js';

/** Attachments of a fuel filling (spec §7 "Fuel fillings"); multipart is registered in this scope only. */
export const fuelAttachmentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const tags = ['fuel fillings'];
    await registerAttachmentRoutes(
      fastify,
      ctx,
      fuelAttachments,
      '/api/fleets/:fid/fuel-fillings/:id/attachments',
      {
        list: {
          config: { need: 'fuel.view' },
          schema: {
            tags,
            summary: 'Attachments of a fuel filling',
            params: fleetItemParams,
            response: { 200: fuelAttachmentListReply },
          },
        },
        upload: {
          config: { need: 'fuel.manage' },
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
        download: {
          config: { need: 'fuel.view' },
          schema: {
            tags,
            summary: 'Download an attachment with its original name',
            params: fuelAttachmentParams,
            response: { 200: binaryReply },
          },
        },
        remove: {
          config: { need: 'fuel.manage' },
          schema: {
            tags,
            summary: 'Delete an attachment',
            params: fuelAttachmentParams,
            response: { 200: fuelAttachmentDeleteReply },
          },
        },
      },
    );
  };
