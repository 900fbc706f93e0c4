import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { markRequestActor, resolvingAt } from '../auth/cache.js';
import type { AppContext } from '../context.js';
import { resolveBearer, resolveSession, revisionOf } from '../modules/session/service.js';
import { noSession } from './errors.js';
import { keepListRevisions, readRevisions } from './etag.js';
import { authorize, fleetSourceOf, pathInt } from './needs.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that need no session: login, auth, telematics ingestion, the API description. */
    public?: boolean;
  }
  interface FastifyRequest {
    actorOrNull: Actor | null;
  }
}

/** Reads the credential of DESIGN §4 from a request: `SSID <session>` or `Bearer <api token>`. */
export async function actorFromHeader(
  ctx: AppContext,
  header: string | undefined,
): Promise<Actor | undefined> {
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (!value) return undefined;
  if (scheme === 'ssid') return resolveSession(ctx, value);
  if (scheme === 'bearer') return resolveBearer(ctx, value);
  return undefined;
}

/** The browsable API description (swagger-ui and its assets) is public like /api/openapi.json. */
const DOCS_PREFIX = '/api/docs';

function needsSession(request: FastifyRequest): boolean {
  // The matched route pattern, not the raw URL: `/%61pi/...` routes to `/api/...` too.
  const route = request.routeOptions.url;
  if (request.is404 || request.routeOptions.config.public || !route?.startsWith('/api/')) return false;
  return route !== DOCS_PREFIX && !route.startsWith(`${DOCS_PREFIX}/`);
}

/** The fleet of a tagged list route (`config.taggedBy`), when its path names one. */
function taggedFleet(request: FastifyRequest): number | undefined {
  const { taggedBy, fleetFrom } = request.routeOptions.config;
  if (!taggedBy) return undefined;
  const source = fleetSourceOf(request.routeOptions.url ?? '', fleetFrom);
  if (!source || !('param' in source) || 'record' in source) return undefined;
  return pathInt((request.params as Record<string, unknown>)[source.param]);
}

/**
 * The request's actor. On a tagged list route the access revision is read together with the list's
 * revisions (http/etag.ts `readRevisions`): one round trip instead of two, and `sendTagged` takes them.
 */
async function resolveActor(ctx: AppContext, request: FastifyRequest): Promise<Actor | undefined> {
  const header = request.headers.authorization;
  const fleetId = header ? taggedFleet(request) : undefined;
  const taggedBy = request.routeOptions.config.taggedBy;
  if (fleetId === undefined || !taggedBy) return actorFromHeader(ctx, header);
  const { access, list } = await readRevisions(ctx.db, fleetId, taggedBy);
  keepListRevisions(request, list);
  return resolvingAt(ctx, access, () => actorFromHeader(ctx, header));
}

export function installAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('actorOrNull', null);
  // onRequest, so that a call without a session or without the right is refused before its body is
  // even read.
  app.addHook('onRequest', async (request) => {
    if (!needsSession(request)) return;
    const actor = await resolveActor(ctx, request);
    if (!actor) throw noSession();
    // The fleet checks of this request may use what is remembered at the revision it observed.
    const rev = revisionOf(actor);
    if (rev !== undefined) markRequestActor(actor, rev);
    request.actorOrNull = actor;
    await authorize(ctx, request, actor);
  });
}

/** The actor of an authenticated route; the hook guarantees it is set. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actorOrNull) throw noSession();
  return request.actorOrNull;
}
