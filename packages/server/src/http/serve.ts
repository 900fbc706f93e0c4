import { binaryReply, type RouteDef } from '@fleetkeep/core';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  onRequestHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import { z } from 'zod';
import type { Collection } from './etag.js';
import type { FleetSource } from './needs.js';

/**
 * Registers a route from its core descriptor (core routes/route.ts): method, path, `config.need`, and
 * the schemas the validator, the reply check and the OpenAPI document read (DESIGN §5). A module's
 * `routes.ts` is a list of `serve(app, xRoutes.y, handler)`: the handler gets the parsed params, query
 * and body of the descriptor's schemas, and must return its reply.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The descriptor the route was registered from (the drift test of http/serve.http.test.ts). */
    route?: RouteDef;
  }
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The request of a descriptor's route, with what its schemas parsed. */
export type ServedRequest<D extends RouteDef> = FastifyRequest<{
  Params: Parsed<D['params']>;
  Querystring: Parsed<D['query']>;
  Body: D['body'] extends z.ZodType ? z.output<D['body']> : unknown;
}>;

/**
 * What the handler returns: the descriptor's JSON reply, or the reply object itself when the handler
 * has sent the answer (a file, a body serialised ahead, a stream).
 */
export type ServedReply<D extends RouteDef> =
  | (D['reply'] extends z.ZodType ? z.input<D['reply']> : never)
  | FastifyReply;

export type ServedHandler<D extends RouteDef> = (
  req: ServedRequest<D>,
  reply: FastifyReply,
) => Promise<ServedReply<D>> | ServedReply<D>;

/** What the server adds to a descriptor: how the fleet of a need is found, revision tags, body limit. */
export interface ServeOptions {
  /** When the fleet is not the path's `:fid` (http/needs.ts `fleetSourceOf`). */
  fleetFrom?: FleetSource;
  /** A tagged list route (http/etag.ts). */
  taggedBy?: readonly Collection[];
  bodyLimit?: number;
  /** A reply sent whole with its Content-Length, not compressed on the way (a generated file). */
  compress?: false;
  /**
   * A check of a sessionless route that runs before the body is read, as the need check does for the
   * others (the Traccar forwarding's token).
   */
  onRequest?: onRequestHookHandler;
}

/** The documented body of an upload; the handler reads the parts (any other body: error 4). */
const multipartBody = z.unknown().describe('multipart/form-data with one or more file parts');

function schemaOf(def: RouteDef): FastifySchema {
  const schema: FastifySchema & { tags: string[]; summary: string; hide?: boolean; security?: [] } = {
    tags: [...def.tags],
    summary: def.summary,
    response: { [def.status ?? 200]: def.reply === 'file' ? binaryReply : def.reply },
  };
  if (def.hidden) schema.hide = true;
  if (def.sessionless) schema.security = [];
  if (def.params) schema.params = def.params;
  if (def.query) schema.querystring = def.query;
  if (def.body === 'multipart') {
    schema.consumes = ['multipart/form-data', 'application/json'];
    schema.body = multipartBody;
  } else if (def.body) schema.body = def.body;
  if (def.consumes) schema.consumes = [...def.consumes];
  return schema;
}

export function serve<const D extends RouteDef>(
  app: FastifyInstance,
  def: D,
  handler: ServedHandler<D>,
  options: ServeOptions = {},
): void {
  const config: FastifyContextConfig = def.need === 'public' ? { public: true } : { need: def.need };
  config.route = def;
  if (options.fleetFrom) config.fleetFrom = options.fleetFrom;
  if (options.taggedBy) config.taggedBy = options.taggedBy;
  app.route({
    method: def.method,
    url: def.path,
    config,
    schema: schemaOf(def),
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.compress === false ? { compress: false } : {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    // The validator compiler (app.ts) gives the handler what the descriptor's schemas parsed.
    handler: handler as unknown as RouteHandlerMethod,
  });
}
