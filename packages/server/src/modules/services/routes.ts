import { servicesRoutes as services } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { ReplyCache, sendByRevisions, sendTagged } from '../../http/etag.js';
import { serve } from '../../http/serve.js';
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

/** The services API of spec §7 "Services" (PRODUCT.md "Services"; core routes/services.ts). */
export const serviceRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    // Bodies of the tagged lists (active, per object, archive), one per tag and variant (http/etag.ts).
    const lists = new ReplyCache();
    // Bodies of single services, one per services and owners revisions and id (`sendByRevisions`).
    const ones = new ReplyCache(16 * 1024 * 1024);
    // The auth hook reads the lists' revisions with the access revision (http/etag.ts).
    const tagged = { taggedBy: SERVICE_LIST_COLLECTIONS };

    serve(
      app,
      services.list,
      async (req, reply) =>
        sendTagged(
          ctx,
          lists,
          req,
          reply,
          req.params.fid,
          await openServicesRead(ctx, actorOf(req), req.params.fid, req.query),
        ),
      tagged,
    );
    serve(app, services.create, async (req) => createService(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, services.createMany, async (req) =>
      createMany(ctx, actorOf(req), req.params.fid, req.body.services),
    );
    serve(app, services.updateMany, async (req) =>
      updateMany(ctx, actorOf(req), req.params.fid, req.body.services),
    );
    serve(app, services.statusMany, async (req) => statusMany(ctx, actorOf(req), req.params.fid, req.body));
    serve(
      app,
      services.archived,
      async (req, reply) =>
        sendTagged(
          ctx,
          lists,
          req,
          reply,
          req.params.fid,
          await archivedRead(ctx, actorOf(req), req.params.fid, req.query.from, req.query.to),
        ),
      tagged,
    );
    serve(app, services.updateArchived, async (req) =>
      updateArchived(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, services.removeArchivedMany, async (req) =>
      deleteArchived(ctx, actorOf(req), req.params.fid, req.body.services),
    );
    serve(app, services.removeArchived, async (req) =>
      deleteOneArchived(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(
      app,
      services.get,
      async (req, reply) =>
        sendByRevisions(
          ctx,
          ones,
          req,
          reply,
          req.params.fid,
          await serviceRead(ctx, actorOf(req), req.params.fid, req.params.id),
        ),
      tagged,
    );
    serve(app, services.update, async (req) =>
      updateOne(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, services.confirm, async (req) =>
      confirmService(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, services.reject, async (req) =>
      rejectService(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    await app.register(attachmentRoutes(ctx));
  };
