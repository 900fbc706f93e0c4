import { ErrorCode, platformRoutes as platform } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorFromHeader, actorOf } from '../../http/auth-hook.js';
import { AppError, invalidInput, noSession, notFound } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import { resolveSession } from '../session/service.js';
import { createMapKey, deleteMapKey, getKeys, listMapKeys } from './map-keys.js';
import { isTileCoordinate, tileCacheOf } from './tiles.js';
import { listUnitTypes, setUnitTypeTeltonika } from './unit-types.js';

/** The platform's remote calls of spec §7 served by Fleetkeep itself (DESIGN §3; core routes/platform.ts). */
export const platformRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const tiles = tileCacheOf(ctx);

    serve(app, platform.keys, async () => getKeys(ctx));
    serve(app, platform.mapKeys, async (req) => listMapKeys(ctx, actorOf(req)));
    serve(app, platform.mapKeyCreate, async (req) => createMapKey(ctx, actorOf(req), req.body));
    serve(app, platform.mapKeyRemove, async (req) => deleteMapKey(ctx, actorOf(req), req.params.id));
    serve(app, platform.unitTypes, async (req) => listUnitTypes(ctx, actorOf(req)));
    serve(app, platform.unitTypeTeltonika, async (req) =>
      setUnitTypeTeltonika(ctx, actorOf(req), req.params.id, req.body),
    );
    // The session comes as `sid` or the header (core routes/platform.ts `tile`).
    serve(app, platform.tile, async (req, reply) => {
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
    });
  };
