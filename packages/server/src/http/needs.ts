import { ErrorCode, isFleetNeed, NEEDS, type NeedName, type RouteDef } from '@fleetkeep/core';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import {
  holds,
  loadAccountTree,
  mayAdministerAccounts,
  needMask,
  requireFleet,
  visibleFleets,
} from '../auth/access.js';
import type { Actor } from '../auth/actor.js';
import { requireReach } from '../auth/reach.js';
import type { AppContext } from '../context.js';
import { AppError, accessDenied, notFound } from './errors.js';
import { objectNotFound, objectScopeOf, requireObjectInFleet } from './object-scope.js';

/**
 * Route declarations of the named needs (core `needs.ts`) and their check before the body is read.
 *
 * Every authenticated `/api` route declares `config.need`; a fleet need also says where the fleet comes
 * from (`fleetFrom`, by default the path's `:fid`, or `:id` under `/api/fleets/:id`). The auth hook calls
 * `authorize` in `onRequest`, so a caller without the right is refused with 403 (or 404 where a record's
 * existence must not show) before its body is parsed or validated (issue "authorization before
 * validation"). Service functions check again with their own need (the same fleet read is reused) and
 * add what only the record or the body can tell, such as "archived services need archive.edit".
 */

/** Tables whose rows name their fleet, for routes addressed by record id alone (`/api/drivers/:id`). */
export type RecordTable = 'drivers' | 'trailers' | 'custom_fields';

export type FleetSource =
  /** A path parameter holding the fleet id. */
  | { param: string }
  /**
   * A record's fleet. With `hidden`, an unknown record, or one of a fleet the caller is not a member of,
   * answers 404 with that reason; without it, 403 like an unknown fleet. A service object (driver,
   * trailer) is hidden so by default (http/object-scope.ts).
   */
  | { record: RecordTable; param: string; hidden?: string }
  /**
   * The body names the fleet(s): the caller must hold the need in at least one fleet here; the service
   * checks the fleets the body names once it is parsed.
   */
  | { body: true };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route asks of its caller (core `needs.ts`). Required on every authenticated /api route. */
    need?: NeedName;
    fleetFrom?: FleetSource;
  }
  interface FastifyInstance {
    /** Every /api route with its declaration, as registered (read by the matrix and reply-schema tests). */
    routeDeclarations: RouteDeclaration[];
  }
}

export interface RouteDeclaration {
  method: string;
  url: string;
  public: boolean;
  need: NeedName | undefined;
  fleetFrom: FleetSource | undefined;
  /** Status codes with a declared reply schema. */
  replies: string[];
  /** The core descriptor it was registered from (http/serve.ts), if any. */
  descriptor: RouteDef | undefined;
}

/** The route's fleet source: declared, or the conventional path parameter. */
export function fleetSourceOf(url: string, declared: FleetSource | undefined): FleetSource | undefined {
  if (declared) return declared;
  if (url.includes('/:fid')) return { param: 'fid' };
  if (url.startsWith('/api/fleets/:id')) return { param: 'id' };
  return undefined;
}

const DOCS_PREFIX = '/api/docs';

function isApiRoute(url: string): boolean {
  return url.startsWith('/api/') && url !== DOCS_PREFIX && !url.startsWith(`${DOCS_PREFIX}/`);
}

/**
 * Records every /api route's declaration and refuses, at start-up, an authenticated route without a
 * need or a fleet need without a fleet source: a new route cannot ship without saying who may call it.
 */
export function installNeedDeclarations(app: FastifyInstance): void {
  const declarations: RouteDeclaration[] = [];
  app.decorate('routeDeclarations', declarations);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isApiRoute(route.url)) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    if (methods.length === 0) return;
    const config = (route.config ?? {}) as {
      public?: boolean;
      need?: NeedName;
      fleetFrom?: FleetSource;
      route?: RouteDef;
    };
    const isPublic = config.public === true;
    if (!isPublic) {
      if (!config.need || !Object.hasOwn(NEEDS, config.need))
        throw new Error(`${methods.join(',')} ${route.url} declares no known permission need`);
      if (isFleetNeed(config.need) && !fleetSourceOf(route.url, config.fleetFrom))
        throw new Error(`${methods.join(',')} ${route.url}: fleet need without a fleet source`);
    }
    const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
    for (const method of methods) {
      declarations.push({
        method,
        url: route.url,
        public: isPublic,
        need: config.need,
        fleetFrom: config.fleetFrom,
        replies: response ? Object.keys(response) : [],
        descriptor: config.route,
      });
    }
  });
}

/** A path id as the schemas accept it (spec §5 integer); anything else is left to validation (400). */
export function pathInt(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return undefined;
  const n = Number(value);
  return n <= 2147483647 ? n : undefined;
}

async function recordFleet(ctx: AppContext, table: RecordTable, id: number): Promise<number | null> {
  const row = await ctx.db.kysely
    .selectFrom(table)
    .select('fleet_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.fleet_id ?? null;
}

/** Checks the route's declared need for the actor; throws 403 (or 404) before the body is read. */
export async function authorize(ctx: AppContext, request: FastifyRequest, actor: Actor): Promise<void> {
  const { need, fleetFrom } = request.routeOptions.config;
  if (!need) throw accessDenied(); // unreachable: onRoute refuses such routes; fail closed regardless
  const rule = NEEDS[need];
  switch (rule.scope) {
    case 'user':
      return;
    case 'su':
      if (!actor.su) throw accessDenied();
      return;
    case 'account':
      if (!mayAdministerAccounts(actor, await loadAccountTree(ctx))) throw accessDenied();
      return;
    case 'fleet':
      break;
  }
  const fleetNeed = need as Parameters<typeof requireFleet>[3];
  const source = fleetSourceOf(request.routeOptions.url ?? '', fleetFrom);
  if (!source) throw accessDenied();
  const params = request.params as Record<string, unknown>;
  if ('body' in source) {
    const fleets = await visibleFleets(ctx, actor, needMask(actor, fleetNeed));
    if (!fleets.some((f) => holds(f, fleetNeed))) throw accessDenied();
    return;
  }
  const id = pathInt(params[source.param]);
  if (id === undefined) return; // a malformed id names no fleet; validation answers 400
  if ('record' in source) {
    const fleetId = await recordFleet(ctx, source.record, id);
    const hiddenReason = source.hidden ?? objectNotFound(source.record);
    if (hiddenReason) {
      const hidden = notFound(hiddenReason);
      if (fleetId === null) throw hidden;
      try {
        await requireFleet(ctx, actor, fleetId, 'fleet.member');
      } catch (err) {
        if (err instanceof AppError && err.code === ErrorCode.accessDenied) throw hidden;
        throw err;
      }
    } else if (fleetId === null) throw accessDenied();
    await requireFleet(ctx, actor, fleetId, fleetNeed);
    return;
  }
  const access = await requireFleet(ctx, actor, id, fleetNeed);
  // A route of one service object answers 404 for an object outside this fleet (http/object-scope.ts),
  // or outside what an "assigned units only" member reaches (auth/reach.ts).
  const scope = objectScopeOf(request.routeOptions.url ?? '');
  const objectId = scope && pathInt(params[scope.param]);
  if (scope && objectId !== undefined) {
    await requireObjectInFleet(ctx, scope, objectId, id);
    await requireReach(ctx, actor, access, scope.table, objectId);
  }
}
