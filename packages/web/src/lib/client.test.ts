import fs from 'node:fs';
import path from 'node:path';
import { fleetItemParams, okReply, type RouteDef, route, routes } from '@fleetkeep/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { setSession } from './api.ts';
import { client, clientOf, fillPath, queryString } from './client.ts';

/** The typed client of lib/client.ts: URLs from the core descriptors, calls through `api`. */

interface Sent {
  url: string;
  method: string | undefined;
  body: unknown;
  authorization: string | undefined;
  signal: AbortSignal | undefined;
}

let sent: Sent[] = [];

beforeEach(() => {
  sent = [];
  setSession('s1');
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    sent.push({
      url,
      method: init.method,
      body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
      authorization: headers.Authorization,
      signal: init.signal ?? undefined,
    });
    return new Response(JSON.stringify({ error: 0, url }), { status: 200 });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  setSession(null);
});

const probe = {
  open: route({
    method: 'GET',
    path: '/api/open/:fid/:id',
    params: fleetItemParams,
    reply: okReply,
    need: 'public',
    summary: 'test',
    tags: [],
  }),
  search: route({
    method: 'GET',
    path: '/api/search',
    query: z.object({ q: z.string().optional(), ids: z.array(z.number()).optional() }),
    reply: okReply,
    need: 'user.self',
    summary: 'test',
    tags: [],
  }),
};

describe('client', () => {
  it('fills the path params in path order, encoded', () => {
    const def = { path: '/api/fleets/:fid/x/:id/y/:aid' } as RouteDef;
    expect(fillPath(def, [1, 'a b/c', 3, 'rest'])).toEqual({
      path: '/api/fleets/1/x/a%20b%2Fc/y/3',
      rest: ['rest'],
    });
  });

  it('writes queries without empty fields, repeating arrays', () => {
    expect(queryString({ from: '2024-01-01', to: 'x&y', none: undefined, nil: null })).toBe(
      '?from=2024-01-01&to=x%26y',
    );
    expect(queryString({ ids: [1, 2] })).toBe('?ids=1&ids=2');
    expect(queryString({})).toBe('');
    expect(queryString(undefined)).toBe('');
  });

  it('sends a body route as JSON with its method and the session', async () => {
    const controller = new AbortController();
    await client.fuel.update(3, 7, { volume: 12 }, { signal: controller.signal });
    expect(sent).toEqual([
      {
        url: '/api/fleets/3/fuel-fillings/7',
        method: 'PUT',
        body: { volume: 12 },
        authorization: 'SSID s1',
        signal: controller.signal,
      },
    ]);
  });

  it('sends a query route with its query, and a route without either', async () => {
    await client.fuel.list(3, { from: '2024-01-01', to: '2024-01-31' });
    await client.fuel.remove(3, 9);
    expect(sent.map((s) => `${s.method} ${s.url} ${JSON.stringify(s.body)}`)).toEqual([
      'GET /api/fleets/3/fuel-fillings?from=2024-01-01&to=2024-01-31 undefined',
      'DELETE /api/fleets/3/fuel-fillings/9 undefined',
    ]);
  });

  it('calls a public route without the session, an optional query may be left out', async () => {
    const own = (clientOf({ probe }) as { probe: unknown }).probe as {
      open: (fid: number, id: number) => Promise<unknown>;
      search: (query?: { ids?: number[] }) => Promise<unknown>;
    };
    await own.open(1, 2);
    await own.search();
    await own.search({ ids: [4, 5] });
    expect(sent.map((s) => [s.url, s.authorization])).toEqual([
      ['/api/open/1/2', undefined],
      ['/api/search', 'SSID s1'],
      ['/api/search?ids=4&ids=5', 'SSID s1'],
    ]);
  });

  it('gives file routes a URL and uploads an upload call, and never calls them as JSON', () => {
    expect(client.fuel.attachmentDownload.url(3, 7, 11)).toBe('/api/fleets/3/fuel-fillings/7/attachments/11');
    expect(client.services.attachmentUpload.url(3, 7)).toBe('/api/fleets/3/services/7/attachments');
    expect(typeof client.services.attachmentUpload.upload).toBe('function');
    for (const [module, defs] of Object.entries(routes)) {
      for (const [name, def] of Object.entries(defs as Record<string, RouteDef>)) {
        const entry = (client as unknown as Record<string, Record<string, unknown>>)[module]?.[name];
        const plain = def.reply !== 'file' && def.body !== 'multipart';
        expect(typeof entry, `${module}.${name}`).toBe(plain ? 'function' : 'object');
      }
    }
  });
});

/** The web app's source files outside the tests, by path under src/. */
function sourceFiles(): { rel: string; text: string }[] {
  const src = path.resolve(import.meta.dirname, '..');
  const files: { rel: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
        files.push({ rel: path.relative(src, full), text: fs.readFileSync(full, 'utf8') });
    }
  };
  walk(src);
  return files;
}

describe('the way to the API', () => {
  it('URLs are built in lib/client.ts only: no API path is written anywhere else', () => {
    const found = sourceFiles()
      .filter((file) => /['"`]\/api\//.test(file.text))
      .map((file) => file.rel);
    expect(found.sort()).toEqual([]);
  });

  it('`api` of lib/api.ts is called from lib/ only: the features call the typed client', () => {
    const importsApi = /import\s*(?:type\s*)?\{[^}]*\bapi\b[^}]*\}\s*from\s*'[^']*\/api\.ts'/;
    const found = sourceFiles()
      .filter((file) => !file.rel.startsWith(`lib${path.sep}`) && importsApi.test(file.text))
      .map((file) => file.rel);
    expect(found.sort()).toEqual([]);
  });
});
