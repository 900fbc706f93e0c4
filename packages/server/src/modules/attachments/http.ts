import type { Multipart } from '@fastify/multipart';
import multipart from '@fastify/multipart';
import type { RouteDef } from '@fleetkeep/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { serve } from '../../http/serve.js';
import { type attachmentStore, contentDisposition, safeContentType } from './store.js';

/**
 * The four attachment routes of an owner (list, upload, download, delete), the same for services and
 * fuel fillings; each owner's core descriptors (routes/services.ts, routes/fuel.ts) declare every
 * route's path, need and schemas.
 */

type OwnerParams = z.ZodObject<{ fid: z.ZodType<number>; id: z.ZodType<number> }>;
type FileParams = z.ZodObject<{ fid: z.ZodType<number>; id: z.ZodType<number>; aid: z.ZodType<number> }>;

/** An owner's four descriptors: `…/:id/attachments` and `…/:id/attachments/:aid`. */
export interface AttachmentRoutes {
  list: RouteDef & { method: 'GET'; params: OwnerParams; reply: z.ZodType };
  upload: RouteDef & { method: 'POST'; params: OwnerParams; body: 'multipart'; reply: z.ZodType };
  download: RouteDef & { method: 'GET'; params: FileParams; reply: 'file' };
  remove: RouteDef & { method: 'DELETE'; params: FileParams; reply: z.ZodType };
}

/** Upload overhead allowed beyond the files themselves (part headers, boundaries). */
const MULTIPART_SLACK = 1024 * 1024;

/** The parts of a multipart body; any other body is refused by the store with error 4. */
const partsOf = (req: FastifyRequest): AsyncIterable<Multipart> | undefined =>
  req.isMultipart() ? req.parts() : undefined;

/** Registers multipart (in the caller's scope only, limits from the owner's caps, spec §5) and the routes. */
export async function registerAttachmentRoutes(
  fastify: FastifyInstance,
  ctx: AppContext,
  store: ReturnType<typeof attachmentStore>,
  routes: AttachmentRoutes,
) {
  const { maxFiles, maxBytes } = store.caps;
  await fastify.register(multipart, {
    throwFileSizeLimit: false,
    limits: {
      fileSize: maxBytes,
      files: maxFiles * 5,
      fields: 20,
      parts: maxFiles * 5 + 20,
    },
  });
  serve(fastify, routes.list, async (req) => store.list(ctx, actorOf(req), req.params.fid, req.params.id));
  serve(
    fastify,
    routes.upload,
    async (req) => store.upload(ctx, actorOf(req), req.params.fid, req.params.id, partsOf(req)),
    { bodyLimit: maxBytes + MULTIPART_SLACK },
  );
  serve(fastify, routes.download, async (req, reply) => {
    const file = await store.read(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid);
    return sendFile(reply, file);
  });
  serve(fastify, routes.remove, async (req) =>
    store.remove(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid),
  );
}

/** Sends a stored file with its original name and a safe content type. */
export function sendFile(reply: FastifyReply, file: { name: string; content_type: string; data: Buffer }) {
  // The stored bytes as they are (binaryReply documents them; a Buffer is never serialised).
  return reply
    .header('content-type', safeContentType(file.content_type))
    .header('content-disposition', contentDisposition(file.name))
    .header('x-content-type-options', 'nosniff')
    .send(file.data);
}
