import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * Security headers of every reply, through `@fastify/helmet`:
 *
 * - A Content-Security-Policy that runs no inline script but the few the built pages carry, each allowed
 *   by its hash (the `nomodule` redirect of index.html and the message of invalid.html, for browsers
 *   that cannot run the application, spec §2). Styles may be inline: Mantine writes `<style>` tags and
 *   style attributes. Images from https: and data: (map tiles: OpenStreetMap, the maps service, the
 *   platform layer through `/api/gis/tiles`); the websocket `/events` (ws:, wss:). The maps service
 *   (spec §7 "Map tiles") loads Google's script at run time: its documented hosts are allowed.
 *   No `upgrade-insecure-requests`: a self-hosted instance may be served over plain HTTP on a LAN.
 * - `frame-ancestors 'none'` and `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`,
 *   `Referrer-Policy: strict-origin-when-cross-origin` (OpenStreetMap's tile policy asks for a referrer),
 *   and helmet's other defaults. HSTS is left to the TLS proxy in front (docs/operations.md "Several instances").
 * - `Cache-Control: no-store` on every `/api` reply (credentials and fleet data) that sets no caching of
 *   its own (the platform tiles do), the liveness call included (a cached "up" would hide an outage from
 *   a monitor behind a proxy), except the API browser's static files. The locale files (`/i18n`) and
 *   the built assets keep their caching.
 */

const GOOGLE_SCRIPTS = [
  'https://*.googleapis.com',
  'https://*.gstatic.com',
  '*.google.com',
  'https://*.ggpht.com',
  '*.googleusercontent.com',
];

/** The pages served from the built web app whose inline scripts the policy allows by hash. */
const PAGES_WITH_INLINE_SCRIPTS = ['index.html', 'invalid.html'];

/** `'sha256-…'` of each inline `<script>` (one without `src`) of an HTML text, as CSP hashes them. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = m[1] ?? '';
    const body = m[2] ?? '';
    if (/\bsrc\s*=/i.test(attributes) || body.length === 0) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

function webPageHashes(webDir: string | undefined): string[] {
  if (!webDir) return [];
  const hashes = new Set<string>();
  for (const page of PAGES_WITH_INLINE_SCRIPTS) {
    const file = path.join(webDir, page);
    if (!fs.existsSync(file)) continue;
    for (const h of inlineScriptHashes(fs.readFileSync(file, 'utf8'))) hashes.add(h);
  }
  return [...hashes];
}

/** The policy's directives (helmet form). */
export function cspDirectives(webDir: string | undefined): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...webPageHashes(webDir), ...GOOGLE_SCRIPTS],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:', 'https://fonts.gstatic.com'],
    'connect-src': [
      "'self'",
      'ws:',
      'wss:',
      'https://*.googleapis.com',
      '*.google.com',
      'https://*.gstatic.com',
    ],
    'worker-src': ["'self'", 'blob:'],
    'frame-src': ['*.google.com'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** `/api` paths whose replies may be cached as they say (no credentials, no fleet data). */
function cacheable(url: string): boolean {
  return url === '/api/docs' || url.startsWith('/api/docs/');
}

/** Registers the headers; call before the routes (the hook runs for every request). */
export async function installSecurityHeaders(
  app: FastifyInstance,
  webDir: string | undefined,
): Promise<void> {
  const headers = Object.entries(await helmetHeaders(webDir));
  // The same headers on every reply, set the way helmet sets them (on the raw response).
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const query = request.url.indexOf('?');
    const url = query < 0 ? request.url : request.url.slice(0, query);
    if ((url === '/api' || url.startsWith('/api/')) && !cacheable(url) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}

/**
 * The headers helmet sets with this policy, worked out once: `@fastify/helmet` builds helmet's
 * middleware (and parses the policy) anew on every request, a measurable share of a small read's cost
 *. The headers depend on nothing of the request, so they are taken from one request
 * to a throwaway instance with the plugin registered as before.
 */
async function helmetHeaders(webDir: string | undefined): Promise<Record<string, string | string[]>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(webDir) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  });
  probe.get('/', async (_request, reply) => reply.raw.getHeaders());
  try {
    const res = await probe.inject('/');
    return JSON.parse(res.body) as Record<string, string | string[]>;
  } finally {
    await probe.close();
  }
}
