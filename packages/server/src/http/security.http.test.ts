import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';

/** Security headers (http/security.ts) on the SPA, the API, the locale files and assets. */
describe('security headers', () => {
  let t: TestServer;
  let admin: Client;
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-web-'));
  const redirect = "\n      window.location.replace('/invalid.html');\n    ";
  const message = '\n      document.title = "old";\n    ';
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

  beforeAll(async () => {
    fs.writeFileSync(
      path.join(webDir, 'index.html'),
      `<!doctype html><html><head><script nomodule>${redirect}</script><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>`,
    );
    fs.writeFileSync(
      path.join(webDir, 'invalid.html'),
      `<html><body><script>${message}</script></body></html>`,
    );
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1)');
    t = await startTestServer({ config: { webDir } });
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const directives = (header: string | null) =>
    new Map(
      (header ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((parts) => parts[0])
        .map(([name, ...values]) => [name!, values]),
    );

  it('the SPA: a policy without inline scripts but the pages’ own (by hash), no framing, nosniff, a referrer policy', async () => {
    const res = await t.anon.get('/');
    expect(res.status).toBe(200);
    const csp = directives(res.headers.get('content-security-policy'));
    const scripts = csp.get('script-src') ?? [];
    expect(scripts).toContain("'self'");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(scripts).toContain(hash(redirect));
    expect(scripts).toContain(hash(message));
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('style-src')).toContain("'unsafe-inline'");
    expect(csp.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'https:']));
    expect(csp.get('connect-src')).toEqual(expect.arrayContaining(["'self'", 'ws:', 'wss:']));
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('cache-control')).not.toMatch(/no-store/);
  });

  it('API replies carry no-store, failures and the login included', async () => {
    for (const res of [
      await admin.get('/api/fleets'),
      await t.anon.get('/api/fleets'),
      await t.anon.post('/api/login', { username: 'nobody', password: 'wrong' }),
      await admin.get('/api/no-such-route'),
      await admin.get('/api/openapi.json'),
    ]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    }
  });

  it('every API route answers no-store, the liveness call included, whatever the outcome', async () => {
    const ping = await t.anon.get('/api/ping');
    expect(ping.status).toBe(200);
    expect(ping.headers.get('cache-control')).toBe('no-store');
    // Each GET route of the app (a new one too), signed in and not, with ids that name nothing: the
    // replies, errors included, must not be kept by a browser or a proxy. The API browser's static files
    // and the platform's map tiles (private, cached a day) set their own caching.
    const routes = t.server.app.routeDeclarations.filter(
      (d) => d.method === 'GET' && !d.url.startsWith('/api/gis/tiles/'),
    );
    expect(routes.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const route of routes) {
      const url = route.url.replace(/:\w+/g, '2000000000');
      for (const client of [admin, t.anon]) {
        const res = await client.get(url);
        if (res.headers.get('cache-control') !== 'no-store')
          wrong.push(`${url} ${res.status} ${res.headers.get('cache-control')}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('locale files and built assets keep their caching', async () => {
    const locale = await t.anon.get('/i18n/en.json');
    expect(locale.status).toBe(200);
    expect(locale.headers.get('cache-control')).toBe('no-cache');
    const asset = await t.anon.get('/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).not.toMatch(/no-store/);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the API browser still loads its own scripts under the policy', async () => {
    const page = await t.anon.get('/api/docs/static/index.html');
    expect(page.status).toBe(200);
    const csp = directives(page.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toContain("'self'");
    const scripts = [...String(page.body).matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    // Every script of the page is a file of this origin: nothing inline for the policy to refuse.
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\.?\/?[^":]+"/);
      expect(body?.trim()).toBe('');
    }
  });
});
