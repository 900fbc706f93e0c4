import { issuesRoutes as issues } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { registerAttachmentRoutes } from '../attachments/http.js';
import { issueAttachments } from './attachments.js';
import { actOnIssue, createIssue, deleteIssue, getIssue, listIssues, updateIssue } from './service.js';

/** The issues API (docs/product.md "Issues"; core routes/issues.ts). */
export const issueRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, issues.list, async (req) => listIssues(ctx, actorOf(req), req.params.fid, req.query));
    serve(app, issues.create, async (req) => createIssue(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, issues.get, async (req) => getIssue(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, issues.update, async (req) =>
      updateIssue(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, issues.remove, async (req) => deleteIssue(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, issues.resolve, async (req) =>
      actOnIssue(ctx, actorOf(req), req.params.fid, req.params.id, 'resolve', req.body.note),
    );
    serve(app, issues.close, async (req) =>
      actOnIssue(ctx, actorOf(req), req.params.fid, req.params.id, 'close', req.body.note),
    );
    serve(app, issues.reopen, async (req) =>
      actOnIssue(ctx, actorOf(req), req.params.fid, req.params.id, 'reopen'),
    );
    await app.register(async (scope) => {
      await registerAttachmentRoutes(scope, ctx, issueAttachments, {
        list: issues.attachments,
        upload: issues.attachmentUpload,
        download: issues.attachmentDownload,
        remove: issues.attachmentRemove,
      });
    });
  };
