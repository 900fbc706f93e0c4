import {
  fleetItemParams,
  fleetParams,
  serviceArchivePatch,
  serviceArchiveQuery,
  serviceBatchUpdateBody,
  serviceConfirmBody,
  serviceCreateBody,
  serviceDeleteBatchBody,
  serviceDeleteReply,
  serviceImportBody,
  serviceListQuery,
  serviceListReply,
  serviceRejectBody,
  serviceStatusBatchBody,
  serviceUpdateBody,
  serviceWire,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { ReplyCache, sendByRevisions, sendTagged } from '../../http/etag.js';
import { zApp } from '../../http/types.js';
import { archivedRead, deleteArchived, deleteOneArchived, updateArchived } from './archive.js';
import { attachmentRoutes } from './attachment-routes.js';
import { createMany, statusMany, updateMany } from './batch.js';
import {
  confirmService,
  createService,
  openServicesRead,
  rejectService,
  SERVICE_LIST_COLLECTIONS,
  serviceRead,
  updateOne,
} from './service.js';

/** The services API of spec §7 "Services" (PRODUCT.md "Services"). */
export const serviceRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['services'];
    const base = '/api/fleets/:fid/services';
    // Bodies of the tagged lists (active, per object, archive), one per tag and variant (http/etag.ts).
    const lists = new ReplyCache();
    // Bodies of single services, one per services and owners revisions and id (`sendByRevisions`).
    const ones = new ReplyCache(16 * 1024 * 1024);

    app.get(
      base,
      {
        // The auth hook reads the list's revisions with the access revision (http/etag.ts).
        config: { need: 'service.view', taggedBy: SERVICE_LIST_COLLECTIONS },
        schema: {
          tags,
          summary: 'Open services (Due, overdue, In progress), optionally of one object',
          params: fleetParams,
          querystring: serviceListQuery,
          response: { 200: serviceListReply },
        },
      },
      async (req, reply) =>
        sendTagged(
          ctx,
          lists,
          req,
          reply,
          req.params.fid,
          await openServicesRead(ctx, actorOf(req), req.params.fid, req.query),
        ),
    );
    app.post(
      base,
      {
        config: { need: 'service.manage' },
        schema: {
          tags,
          summary: 'Create a service as Due, In progress or Closed',
          params: fleetParams,
          body: serviceCreateBody,
          response: { 200: serviceWire },
        },
      },
      async (req) => createService(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.post(
      `${base}/batch`,
      {
        config: { need: 'service.manage' },
        schema: {
          tags,
          summary: 'Import services (atomic, per-row errors)',
          params: fleetParams,
          body: serviceImportBody,
          response: { 200: serviceListReply },
        },
      },
      async (req) => createMany(ctx, actorOf(req), req.params.fid, req.body.services),
    );
    app.put(
      `${base}/batch`,
      {
        config: { need: 'service.manage' },
        schema: {
          tags,
          summary: 'Update many open services (atomic, per-row errors); rows as read are accepted',
          params: fleetParams,
          body: serviceBatchUpdateBody,
          response: { 200: serviceListReply },
        },
      },
      async (req) => updateMany(ctx, actorOf(req), req.params.fid, req.body.services),
    );
    app.post(
      `${base}/status/batch`,
      {
        config: { need: 'service.manage' },
        schema: {
          tags,
          summary: 'Set in progress (2), close (8) or reject (16) the selected services (atomic)',
          params: fleetParams,
          body: serviceStatusBatchBody,
          response: { 200: serviceListReply },
        },
      },
      async (req) => statusMany(ctx, actorOf(req), req.params.fid, req.body),
    );
    app.get(
      `${base}/archived`,
      {
        config: { need: 'service.view', taggedBy: SERVICE_LIST_COLLECTIONS },
        schema: {
          tags,
          summary:
            'Closed and rejected services by end date (from/to: Unix seconds or YYYY-MM-DD, ≤ 366 days)',
          params: fleetParams,
          querystring: serviceArchiveQuery,
          response: { 200: serviceListReply },
        },
      },
      async (req, reply) =>
        sendTagged(
          ctx,
          lists,
          req,
          reply,
          req.params.fid,
          await archivedRead(ctx, actorOf(req), req.params.fid, req.query.from, req.query.to),
        ),
    );
    app.put(
      `${base}/archived/:id`,
      {
        config: { need: 'archive.edit' },
        schema: {
          tags,
          summary:
            'Correct an archived service (archiveEdit); the status stays frozen; the record as read is accepted',
          params: fleetItemParams,
          body: serviceArchivePatch,
          response: { 200: serviceWire },
        },
      },
      async (req) => updateArchived(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.delete(
      `${base}/archived/batch`,
      {
        config: { need: 'archive.delete' },
        schema: {
          tags,
          summary: 'Delete archived services (archiveDelete, atomic)',
          params: fleetParams,
          body: serviceDeleteBatchBody,
          response: { 200: serviceDeleteReply },
        },
      },
      async (req) => deleteArchived(ctx, actorOf(req), req.params.fid, req.body.services),
    );
    app.delete(
      `${base}/archived/:id`,
      {
        config: { need: 'archive.delete' },
        schema: {
          tags,
          summary: 'Delete an archived service (archiveDelete)',
          params: fleetItemParams,
          response: { 200: serviceDeleteReply },
        },
      },
      async (req) => deleteOneArchived(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.get(
      `${base}/:id`,
      {
        // The services and owners revisions come with the access revision (http/etag.ts).
        config: { need: 'service.view', taggedBy: SERVICE_LIST_COLLECTIONS },
        schema: {
          tags,
          summary: 'One service, any status',
          params: fleetItemParams,
          response: { 200: serviceWire },
        },
      },
      async (req, reply) =>
        sendByRevisions(
          ctx,
          ones,
          req,
          reply,
          req.params.fid,
          await serviceRead(ctx, actorOf(req), req.params.fid, req.params.id),
        ),
    );
    app.put(
      `${base}/:id`,
      {
        config: { need: 'service.manage' },
        schema: {
          tags,
          summary:
            'Update an open service (status changes per the transition rules); the record as read is accepted',
          params: fleetItemParams,
          body: serviceUpdateBody,
          response: { 200: serviceWire },
        },
      },
      async (req) => updateOne(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    app.put(
      `${base}/:id/confirm`,
      {
        config: { need: 'service.manage' },
        schema: {
          tags,
          summary: 'Confirm a Due service: In progress from today',
          params: fleetItemParams,
          body: serviceConfirmBody,
          response: { 200: serviceWire },
        },
      },
      async (req) => confirmService(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    app.post(
      `${base}/:id/status`,
      {
        config: { need: 'service.manage' },
        schema: {
          tags,
          summary: 'Reject a Due or In progress service (f = 16)',
          params: fleetItemParams,
          body: serviceRejectBody,
          response: { 200: serviceWire },
        },
      },
      async (req) => rejectService(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    await fastify.register(attachmentRoutes(ctx));
  };
