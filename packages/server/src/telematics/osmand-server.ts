import Fastify, { LogController } from 'fastify';
import type { AppContext } from '../context.js';
import { installErrorHandling } from '../http/errors.js';
import { ingestOsmand, osmandInput } from './service.js';

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
  // Trackers label their bodies loosely (or not at all): take any body as text and look at it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.route({
    method: ['GET', 'POST'],
    url: '/*',
    handler: async (req) => ingestOsmand(ctx, osmandInput(req.query, req.body)),
  });

  await app.listen({ port, host });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => app.close(),
  };
}
