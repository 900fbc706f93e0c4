import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { ErrorCode, metaRoutes, RELEASE } from '@fleetkeep/core';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context.js';
import { eventsSocket } from './events/socket.js';
import { installAuth } from './http/auth-hook.js';
import { describeWithErrorReply, installErrorHandling } from './http/errors.js';
import { installJsonDepthLimit } from './http/json-depth.js';
import { installNeedDeclarations } from './http/needs.js';
import { installNoChangeCheck } from './http/no-change.js';
import { isOldInternetExplorer } from './http/old-browser.js';
import { replySerializer } from './http/replies.js';
import { installSecurityHeaders } from './http/security.js';
import { serve } from './http/serve.js';
import { installTextParsers } from './http/utf8.js';
import { localeRoutes } from './i18n/routes.js';
import { adminRoutes } from './modules/admin/routes.js';
import { adminUserRoutes } from './modules/admin/user-routes.js';
import { assignmentRoutes } from './modules/assignments/routes.js';
import { clientErrorRoutes } from './modules/client-errors/routes.js';
import { componentRoutes } from './modules/components/routes.js';
import { customFieldRoutes } from './modules/customfields/routes.js';
import { documentRoutes } from './modules/documents/routes.js';
import { faultCodeRoutes } from './modules/fault-codes/routes.js';
import { fleetTransferRoutes } from './modules/fleet-transfer/routes.js';
import { fleetAdminRoutes } from './modules/fleets/admin-routes.js';
import { objectRoutes } from './modules/fleets/object-routes.js';
import { unitPhotoRoutes } from './modules/fleets/photo-routes.js';
import { fleetRoutes } from './modules/fleets/routes.js';
import { fuelRoutes } from './modules/fuel/routes.js';
import { importRoutes } from './modules/imports/routes.js';
import { inspectionRoutes } from './modules/inspections/routes.js';
import { intervalRoutes } from './modules/intervals/routes.js';
import { issueRoutes } from './modules/issues/routes.js';
import { lineItemRoutes } from './modules/lineitems/routes.js';
import { meterRoutes } from './modules/meter/routes.js';
import { notificationChannelRoutes } from './modules/notification-channels/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { partRoutes } from './modules/parts/routes.js';
import { platformRoutes } from './modules/platform/routes.js';
import { reportMailRoutes } from './modules/reportmails/routes.js';
import { reportRoutes } from './modules/reports/routes.js';
import { serviceRoutes } from './modules/services/routes.js';
import { sessionRoutes } from './modules/session/routes.js';
import { setupRoutes } from './modules/setup/routes.js';
import { statisticsRoutes } from './modules/statistics/routes.js';
import { userRoutes } from './modules/user/routes.js';
import { workOrderRoutes } from './modules/work-orders/routes.js';
import { ingestRoutes } from './telematics/routes.js';

export interface BuildOptions {
  logger?: boolean | object;
}

/** Builds the HTTP application: API, websocket, API description and the SPA (DESIGN §1). */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: ctx.config.logLevel },
    bodyLimit: ctx.config.bodyLimit,
    // Off by default: a client could otherwise rotate X-Forwarded-For past the login rate limit.
    trustProxy: ctx.config.trustProxy,
    // Malformed URLs and the like answer in the API's error shape too (DESIGN §5).
    frameworkErrors: (error, _request, reply) => {
      (reply as FastifyReply)
        .status(400)
        .send({ error: ErrorCode.invalidInput, reason: error.message || 'Invalid request' });
    },
    requestIdHeader: 'x-request-id',
    // Per-request lines would dominate the log (and the cost) of telematics ingestion; errors still log.
    logController: new LogController({ disableRequestLogging: true }),
  });
  // Route handlers and the websocket log through the request logger of this app.
  ctx.log = app.log;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(replySerializer(ctx.config.checkReplies));
  installErrorHandling(app);
  installNeedDeclarations(app);
  // Hardening: JSON nesting depth, updates that name no field, security headers.
  installJsonDepthLimit(app);
  installNoChangeCheck(app);
  await installSecurityHeaders(app, ctx.config.webDir);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fleetkeep API',
        version: RELEASE,
        description: 'Fleet maintenance and service management',
      },
      components: {
        securitySchemes: {
          ssid: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'SSID <session>' },
          bearer: { type: 'http', scheme: 'bearer', description: 'Personal API token' },
        },
      },
      security: [{ ssid: [] }, { bearer: [] }],
    },
    transform: describeWithErrorReply,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { url: '/api/openapi.json' } });
  // Replies of 1 KB and more go out compressed when the client accepts it (br, then gzip): a large fleet's
  // services list is megabytes of JSON and the web app's scripts are three times their gzip size.
  // Registered before every route and the static files, which it hooks. Request bodies are read as sent:
  // no decompression, so a small compressed body can never unpack past the body limits.
  await app.register(compress, { encodings: ['br', 'gzip', 'deflate'], globalDecompression: false });
  // Forms and plain text, decoded as strict UTF-8 like JSON (http/utf8.ts).
  installTextParsers(app);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  installAuth(app, ctx);

  serve(app, metaRoutes.apiDescription, async () => ({ ...app.swagger() }));
  serve(app, metaRoutes.ping, async () => ({ ok: true as const, release: RELEASE }));

  await app.register(sessionRoutes(ctx));
  await app.register(setupRoutes(ctx));
  await app.register(userRoutes(ctx));
  await app.register(adminRoutes(ctx));
  await app.register(adminUserRoutes(ctx));
  await app.register(fleetRoutes(ctx));
  await app.register(objectRoutes(ctx));
  await app.register(unitPhotoRoutes(ctx));
  await app.register(fleetAdminRoutes(ctx));
  await app.register(lineItemRoutes(ctx));
  await app.register(intervalRoutes(ctx));
  await app.register(serviceRoutes(ctx));
  await app.register(fuelRoutes(ctx));
  await app.register(importRoutes(ctx));
  await app.register(meterRoutes(ctx));
  await app.register(faultCodeRoutes(ctx));
  await app.register(inspectionRoutes(ctx));
  await app.register(issueRoutes(ctx));
  await app.register(workOrderRoutes(ctx));
  await app.register(documentRoutes(ctx));
  await app.register(componentRoutes(ctx));
  await app.register(partRoutes(ctx));
  await app.register(statisticsRoutes(ctx));
  await app.register(reportRoutes(ctx));
  await app.register(reportMailRoutes(ctx));
  await app.register(customFieldRoutes(ctx));
  await app.register(notificationRoutes(ctx));
  await app.register(notificationChannelRoutes(ctx));
  await app.register(ingestRoutes(ctx));
  await app.register(platformRoutes(ctx));
  await app.register(clientErrorRoutes(ctx));
  await app.register(fleetTransferRoutes(ctx)); // fleet export, import and migration
  await app.register(assignmentRoutes(ctx));
  await app.register(eventsSocket(ctx));

  // The language files come from their one home in core, with or without a built web app (DESIGN §1).
  await app.register(localeRoutes());
  await serveWeb(app, ctx.config.webDir);
  return app;
}

/**
 * Serves the built SPA; any non-API path that is not a file gets index.html (client-side routes), or
 * invalid.html for old Internet Explorer.
 */
async function serveWeb(app: FastifyInstance, webDir: string | undefined): Promise<void> {
  if (!webDir || !fs.existsSync(path.join(webDir, 'index.html'))) return;
  await app.register(fastifyStatic, { root: webDir, wildcard: false, index: false });
  const hasInvalidPage = fs.existsSync(path.join(webDir, 'invalid.html'));
  app.get('/*', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || url === '/api') return reply.callNotFound();
    const file = path.join(webDir, path.normalize(url));
    if (file.startsWith(webDir) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(path.relative(webDir, file));
    }
    // The answer depends on the browser: old Internet Explorer gets the 'invalid' screen (spec §2).
    reply.header('vary', 'user-agent');
    if (hasInvalidPage && isOldInternetExplorer(req.headers['user-agent'])) {
      return reply.header('cache-control', 'no-store').sendFile('invalid.html', { cacheControl: false });
    }
    return reply.sendFile('index.html');
  });
}
