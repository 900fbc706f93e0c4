import { documentsRoutes as documents } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { registerAttachmentRoutes } from '../attachments/http.js';
import { documentAttachments } from './attachments.js';
import {
  createDocument,
  deleteDocument,
  getDocument,
  listDocuments,
  renewDocument,
  updateDocument,
} from './service.js';
import { createDocumentType, deleteDocumentType, listDocumentTypes, updateDocumentType } from './types.js';

/** The documents API (docs/product.md "Documents"; core routes/documents.ts). */
export const documentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, documents.list, async (req) => listDocuments(ctx, actorOf(req), req.params.fid, req.query));
    serve(app, documents.create, async (req) => createDocument(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, documents.get, async (req) => getDocument(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, documents.update, async (req) =>
      updateDocument(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, documents.remove, async (req) =>
      deleteDocument(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, documents.renew, async (req) =>
      renewDocument(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, documents.types, async (req) => listDocumentTypes(ctx, actorOf(req), req.params.fid));
    serve(app, documents.typeCreate, async (req) =>
      createDocumentType(ctx, actorOf(req), req.params.fid, req.body),
    );
    serve(app, documents.typeUpdate, async (req) =>
      updateDocumentType(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, documents.typeRemove, async (req) =>
      deleteDocumentType(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    await app.register(async (scope) => {
      await registerAttachmentRoutes(scope, ctx, documentAttachments, {
        list: documents.attachments,
        upload: documents.attachmentUpload,
        download: documents.attachmentDownload,
        remove: documents.attachmentRemove,
      });
    });
  };
