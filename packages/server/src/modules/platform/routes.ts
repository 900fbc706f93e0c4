import {
  binaryReply,
  ErrorCode,
  errorBody,
  gisTileParams,
  gisTileQuery,
  idParams,
  mapKeyCreateBody,
  mapKeysReply,
  mapKeyWire,
  okReply,
  platformKeysBody,
  platformKeysReply,
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorFromHeader, actorOf } from '../../http/auth-hook.js';
import { AppError, invalidInput, noSession, notFound } from '../../http/errors.js';
import { zApp } from '../../http/types.js';
import { resolveSession } from '../session/service.js';
import { createMapKey, deleteMapKey, getKeys, listMapKeys } from './map-keys.js';
import { isTileCoordinate, tileCacheOf } from './tiles.js';

/** The platform's remote calls of spec §7 served by Fleetkeep itself (DESIGN §3); contracts in core contracts/platform.ts. */
export const platformRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tiles = tileCacheOf(ctx);

    app.post(
      '/api/remoteapi/user/get_keys',
      {
        config: { need: 'user.self' },
        schema: {
          tags: ['platform'],
          summary: 'Map-provider key records keyed by id (spec §7); no payload',
          body: platformKeysBody,
          response: { 200: platformKeysReply },
        },
      },
      async () => getKeys(ctx),
    );

    app.get(
      '/api/admin/map_keys',
      {
        config: { need: 'platform.su' },
        schema: {
          tags: ['admin'],
          summary: 'Map-provider keys (super user)',
          response: { 200: mapKeysReply },
        },
      },
      async (req) => listMapKeys(ctx, actorOf(req)),
    );
    app.post(
      '/api/admin/map_keys',
      {
        config: { need: 'platform.su' },
        schema: {
          tags: ['admin'],
          summary:
            'Add a map-provider key (super user); type bits: protected 1, routing 2, geocoding 4, optimization 8, tiles 16',
          body: mapKeyCreateBody,
          response: { 200: mapKeyWire },
        },
      },
      async (req) => createMapKey(ctx, actorOf(req), req.body),
    );
    app.delete(
      '/api/admin/map_keys/:id',
      {
        config: { need: 'platform.su' },
        schema: {
          tags: ['admin'],
          summary: 'Delete a map-provider key (super user)',
          params: idParams,
          response: { 200: okReply },
        },
      },
      async (req) => deleteMapKey(ctx, actorOf(req), req.params.id),
    );

    app.get(
      '/api/gis/tiles/:z/:x/:y',
      {
        // Map tiles are <img> requests that cannot carry a header: the session comes as `sid` (spec §7
        // "Map tiles": built from the gis url and session id).
        config: { public: true },
        schema: {
          tags: ['platform'],
          summary: 'A tile of the platform tile layer (GIS_URL), proxied and cached',
          params: gisTileParams,
          querystring: gisTileQuery,
          // The tile as the tile server sent it; 502 when the tile server fails.
          response: { 200: binaryReply, 502: errorBody },
        },
      },
      async (req, reply) => {
        const actor = req.query.sid
          ? await resolveSession(ctx, req.query.sid)
          : await actorFromHeader(ctx, req.headers.authorization);
        if (!actor) throw noSession();
        if (!tiles) throw notFound('The platform tile layer is not configured');
        const y = Number(req.params.y.replace(/\.png$/, ''));
        if (!isTileCoordinate(req.params.z, req.params.x, y)) {
          throw invalidInput([{ field: 'params', message: 'Not a tile of the map grid' }]);
        }
        try {
          const tile = await tiles.get(req.params.z, req.params.x, y);
          return (
            reply
              .header('content-type', tile.type)
              .header('cache-control', 'private, max-age=86400')
              // A Buffer goes out as it is, never through the JSON serializer (binaryReply).
              .send(tile.body as never)
          );
        } catch (err) {
          if (err instanceof AppError && err.code === ErrorCode.unexpected) {
            return reply.status(502).send({ error: err.code, reason: err.message });
          }
          throw err;
        }
      },
    );
  };
