import type { Multipart } from '@fastify/multipart';
import multipart from '@fastify/multipart';
import type { fleetItemParams, serviceAttachmentParams } from '@fleetkeep/core';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
} from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { type attachmentStore, contentDisposition, safeContentType } from './store.js';

/**
 * The four attachment routes of an owner (list, upload, download, delete), the same for services and
 * fuel fillings; each owner's module declares every route's need and core contract schemas.
 */

/** One route as its module declares it: `config: { need }` and the schemas of the core contract. */
export interface AttachmentRoute {
  config: FastifyContextConfig;
  schema: FastifySchema;
}

export interface AttachmentRoutes {
  list: AttachmentRoute;
  upload: AttachmentRoute;
  download: AttachmentRoute;
  remove: AttachmentRoute;
}

/** Upload overhead allowed beyond the files themselves (part headers, boundaries). */
const MULTIPART_SLACK = 1024 * 1024;

// The validator compiler (app.ts) replaces the params with what the declared zod schemas parsed.
type OwnerParams = { Params: z.infer<typeof fleetItemParams> };
type FileParams = { Params: z.infer<typeof serviceAttachmentParams> };

/** The parts of a multipart body; any other body is refused by the store with error 4. */
const partsOf = (req: FastifyRequest): AsyncIterable<Multipart> | undefined =>
  req.isMultipart() ? req.parts() : undefined;

/**
 * Registers multipart (in the caller's scope only, limits from the owner's caps, spec §5) and the routes
 * under `base` (`…/:id/attachments`).
 */
export async function registerAttachmentRoutes(
  fastify: FastifyInstance,
  ctx: AppContext,
  store: ReturnType<typeof attachmentStore>,
  base: string,
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
  fastify.get<OwnerParams>(base, routes.list, async (req) =>
    store.list(ctx, actorOf(req), req.params.fid, req.params.id),
  );
  fastify.post<OwnerParams>(base, { ...routes.upload, bodyLimit: maxBytes + MULTIPART_SLACK }, async (req) =>
    store.upload(ctx, actorOf(req), req.params.fid, req.params.id, partsOf(req)),
  );
  fastify.get<FileParams>(`${base}/:aid`, routes.download, async (req, reply) => {
    const file = await store.read(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid);
    return sendFile(reply, file);
  });
  fastify.delete<FileParams>(`${base}/:aid`, routes.remove, async (req) =>
    store.remove(ctx, actorOf(req), req.params.fid, req.params.id, req.params.aid),
  );
}

/** Sends a stored file with its original name and a safe content type. */
function sendFile(reply: FastifyReply, file: { name: string; content_type: string; data: Buffer }) {
  // The stored bytes as they are (binaryReply documents them; a Buffer is never serialised).
  return reply
    .header('content-type', safeContentType(file.content_type))
    .header('content-disposition', contentDisposition(file.name))
    .header('x-content-type-options', 'nosniff')
    .send(file.data);
}
