import {
  inspectionFormRoutes as forms,
  INSPECTION_BODY_MAX,
  inspectionRoutes as insp,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { sendFile } from '../attachments/http.js';
import { createForm, deleteForm, getForm, listForms, updateForm } from './forms.js';
import {
  deleteInspection,
  getInspection,
  inspectionImage,
  inspectionSettings,
  listInspections,
  setInspectionSettings,
  updateInspection,
} from './service.js';
import { submitInspection } from './submit.js';

/** Inspection forms and inspections (DVIR; core routes/inspections.ts, docs/product.md "Inspections"). */
export const inspectionRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, forms.list, async (req) => listForms(ctx, actorOf(req), req.params.fid));
    serve(app, forms.get, async (req) => getForm(ctx, actorOf(req), req.params.fid, req.params.id));
    serve(app, forms.create, async (req) => createForm(ctx, actorOf(req), req.params.fid, req.body));
    serve(app, forms.update, async (req) =>
      updateForm(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, forms.remove, async (req) => deleteForm(ctx, actorOf(req), req.params.fid, req.params.id));

    serve(app, insp.list, async (req) => listInspections(ctx, actorOf(req), req.params.fid, req.query));
    serve(app, insp.get, async (req) => getInspection(ctx, actorOf(req), req.params.fid, req.params.id));
    // Photos and signatures travel inside the body (modules/inspections/images.ts).
    serve(app, insp.submit, async (req) => submitInspection(ctx, actorOf(req), req.params.fid, req.body), {
      bodyLimit: INSPECTION_BODY_MAX,
    });
    serve(
      app,
      insp.update,
      async (req) => updateInspection(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
      { bodyLimit: INSPECTION_BODY_MAX },
    );
    serve(app, insp.remove, async (req) =>
      deleteInspection(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, insp.image, async (req, reply) =>
      sendFile(
        reply,
        await inspectionImage(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid),
      ),
    );
    serve(app, insp.settings, async (req) => inspectionSettings(ctx, actorOf(req), req.params.fid));
    serve(app, insp.setSettings, async (req) =>
      setInspectionSettings(ctx, actorOf(req), req.params.fid, req.body),
    );
  };
