import { componentsRoutes as c } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { dismountComponent, mountComponent, recordTread } from './actions.js';
import {
  addKind,
  createComponent,
  deleteComponent,
  getComponent,
  getSettings,
  listComponents,
  listKinds,
  removeKind,
  updateComponent,
  updateSettings,
} from './service.js';

/** The components API (docs/product.md "Components"; core routes/components.ts). */
export const componentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, c.list, async (req) => listComponents(ctx, actorOf(req), req.params.fid, req.query));
    serve(app, c.create, async (req) => createComponent(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, c.kinds, async (req) => listKinds(ctx, actorOf(req), req.params.fid));
    serve(app, c.addKind, async (req) => addKind(ctx, actorOf(req), req.params.fid, req.body.name));
    serve(app, c.removeKind, async (req) => removeKind(ctx, actorOf(req), req.params.fid, req.params.kid));
    serve(app, c.settings, async (req) => getSettings(ctx, actorOf(req), req.params.fid));
    serve(app, c.updateSettings, async (req) =>
      updateSettings(ctx, actorOf(req), req.params.fid, req.body.tread_threshold),
    );
    serve(app, c.get, async (req) => getComponent(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, c.update, async (req) =>
      updateComponent(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, c.remove, async (req) => deleteComponent(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, c.mount, async (req) =>
      mountComponent(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, c.dismount, async (req) =>
      dismountComponent(ctx, actorOf(req), req.params.fid, req.params.id, req.body, 'dismount'),
    );
    serve(app, c.retire, async (req) =>
      dismountComponent(ctx, actorOf(req), req.params.fid, req.params.id, req.body, 'retire'),
    );
    serve(app, c.tread, async (req) =>
      recordTread(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
  };
