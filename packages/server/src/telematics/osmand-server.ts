import Fastify, { LogController } from 'fastify';
import type { AppContext } from '../context.js';
import { installErrorHandling } from '../http/errors.js';
import { textParser } from '../http/utf8.js';
import { ingestOsmand, osmandInput } from './service.js';

/** Connections waiting to be accepted (a fleet's worth of trackers). */
const TRACKER_BACKLOG = 4096;
/** Devices send one small message at a time. */
const BODY_LIMIT = 64 * 1024;

/**
 * The OsmAnd port of DESIGN §3 (`OSMAND_PORT`): any path, GET query or POST form or JSON body, replied to
 * like `/api/ingest/osmand`. Port 0 picks a free port; the real one is returned.
 */
export async function startOsmandServer(
  ctx: AppContext,
  port: number,
  host: string,
): Promise<{ port: number; close(): Promise<void> }> {
  const app = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: BODY_LIMIT,
    logController: new LogController({ disableRequestLogging: true }),
  });
  installErrorHandling(app);
  // Trackers label their bodies loosely (or not at all): take any body as text (UTF-8 only, as on the
  // API port) and look at it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, textParser());
  app.route({
    method: ['GET', 'POST'],
    url: '/*',
    handler: async (req) => ingestOsmand(ctx, osmandInput(req.query, req.body)),
  });

  // A fleet's trackers connect in bursts (every unit at once after a stall or a restart): Node's default
  // accept queue of 511 overflowed under the load soak's 2,000 units and trackers timed out connecting.
  // The kernel caps it at net.core.somaxconn.
  await app.listen({ port, host, backlog: TRACKER_BACKLOG });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => app.close(),
  };
}
