import { assignmentsRoutes as assignments } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import {
  assignableDrivers,
  createAssignment,
  deleteAssignment,
  getAssignment,
  listAssignments,
  updateAssignment,
} from './service.js';

/** Vehicle assignments (core routes/assignments.ts). */
export const assignmentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    serve(app, assignments.list, async (req) =>
      listAssignments(ctx, actorOf(req), req.params.fid, req.query),
    );
    serve(app, assignments.create, async (req) =>
      createAssignment(ctx, actorOf(req), req.params.fid, req.body),
    );
    serve(app, assignments.get, async (req) =>
      getAssignment(ctx, actorOf(req), req.params.fid, req.params.id),
    );
    serve(app, assignments.update, async (req) =>
      updateAssignment(ctx, actorOf(req), req.params.fid, req.params.id, req.body),
    );
    serve(app, assignments.drivers, async (req) => assignableDrivers(ctx, actorOf(req), req.params.fid));
    serve(app, assignments.remove, async (req) =>
      deleteAssignment(ctx, actorOf(req), req.params.fid, req.params.id),
    );
  };
