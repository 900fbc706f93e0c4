import {
  pathParamNames,
  type RouteBody,
  type RouteDef,
  type RoutePathArgs,
  type RouteQuery,
  type RouteReply,
  routes,
} from '@fleetkeep/core';
import { api } from './api.ts';
import { type UploadHandle, uploadFiles } from './transfer.ts';

/**
 * The typed API client (DESIGN §7), derived from the core route descriptors (core routes/): one call
 * per route, `client.fuel.update(fid, id, body)` → `Promise<FuelFillingWire>`. Arguments: the path
 * params in path order, then the body (POST, PUT, PATCH) or the query (GET, DELETE) when the route has
 * one, then `{signal}`. Calls go through `api` (session header, ETag revalidation, errors, connection).
 * File replies have `.url(...)` (fetched with the session header by lib/transfer.ts), uploads
 * `.upload(..., files, onProgress)`. URLs are built here only.
 */

export interface CallOptions {
  signal?: AbortSignal;
}

/** `{}` when every field of the query is optional: then the query argument may be left out. */
type QueryArgs<D extends RouteDef> =
  Record<never, never> extends RouteQuery<D> ? [query?: RouteQuery<D>] : [query: RouteQuery<D>];

type PayloadArgs<D extends RouteDef> = D['body'] extends 'multipart'
  ? never
  : D['body'] extends object
    ? [body: RouteBody<D>]
    : D['query'] extends object
      ? QueryArgs<D>
      : [];

/** The arguments of `.url(...)`: path params, then the query when the route has one. */
type UrlArgs<D extends RouteDef> = D['query'] extends object
  ? [...RoutePathArgs<D>, ...QueryArgs<D>]
  : RoutePathArgs<D>;

export type JsonCall<D extends RouteDef> = (
  ...args: [...RoutePathArgs<D>, ...PayloadArgs<D>, options?: CallOptions]
) => Promise<RouteReply<D>>;

export interface FileEntry<D extends RouteDef> {
  url: (...args: UrlArgs<D>) => string;
}

export interface UploadEntry<D extends RouteDef> {
  url: (...args: RoutePathArgs<D>) => string;
  /** POST multipart/form-data, one `file` part per file, with progress (0…1) and abort. */
  upload: (
    ...args: [...RoutePathArgs<D>, files: readonly File[], onProgress: (ratio: number) => void]
  ) => UploadHandle<RouteReply<D>>;
}

export type ClientEntry<D extends RouteDef> = D['reply'] extends 'file'
  ? FileEntry<D>
  : D['body'] extends 'multipart'
    ? UploadEntry<D>
    : JsonCall<D>;

type Routes = typeof routes;
export type Client = {
  [M in keyof Routes]: {
    [K in keyof Routes[M]]: Routes[M][K] extends RouteDef ? ClientEntry<Routes[M][K]> : never;
  };
};

/** `?a=1&b=x`: undefined and null fields are left out, arrays repeat their key; '' for none. */
export function queryString(query: unknown): string {
  if (query === undefined || query === null) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The descriptor's path with the leading arguments in its `:name` segments; the rest of the arguments. */
export function fillPath(def: RouteDef, args: readonly unknown[]): { path: string; rest: unknown[] } {
  const count = pathParamNames(def.path).length;
  let at = 0;
  const path = def.path.replace(/:\w+/g, () => encodeURIComponent(String(args[at++])));
  return { path, rest: args.slice(count) };
}

function jsonCall(def: RouteDef): (...args: unknown[]) => Promise<unknown> {
  const anonymous = def.need === 'public';
  return (...args) => {
    const { path, rest } = fillPath(def, args);
    if (def.body !== undefined) {
      const [body, options] = rest as [unknown, CallOptions | undefined];
      return api(path, { method: def.method, body, anonymous, signal: options?.signal });
    }
    const [query, options] = (def.query === undefined ? [undefined, rest[0]] : rest) as [
      unknown,
      CallOptions | undefined,
    ];
    return api(`${path}${queryString(query)}`, { method: def.method, anonymous, signal: options?.signal });
  };
}

function entryOf(def: RouteDef): unknown {
  const url = (...args: unknown[]) => {
    const { path, rest } = fillPath(def, args);
    return `${path}${queryString(rest[0])}`;
  };
  if (def.reply === 'file') return { url };
  if (def.body === 'multipart') {
    return {
      url,
      upload: (...args: unknown[]) => {
        const { path, rest } = fillPath(def, args);
        const [files, onProgress] = rest as [readonly File[], (ratio: number) => void];
        return uploadFiles(path, files, onProgress);
      },
    };
  }
  return jsonCall(def);
}

/** Builds the client of a descriptor table (the app's is `client`; tests build their own). */
export function clientOf<T extends Record<string, Record<string, RouteDef>>>(table: T): unknown {
  return Object.fromEntries(
    Object.entries(table).map(([module, defs]) => [
      module,
      Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, entryOf(def)])),
    ]),
  );
}

export const client = clientOf(routes) as Client;
