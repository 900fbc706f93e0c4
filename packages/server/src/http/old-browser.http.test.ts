import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

const INVALID_PAGE = path.resolve(import.meta.dirname, '../../../web/public/invalid.html');

/** Old Internet Explorer gets the 'invalid' screen instead of the SPA (spec §2 "Old browsers"). */
describe('old browsers', () => {
  const IE11 = 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko';
  const IE9 = 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Trident/5.0)';
  const CHROME =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
  const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';

  let t: TestServer;
  let webDir: string;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), INDEX);
    // The real page, so that the test also notices when it loses its message element.
    fs.copyFileSync(INVALID_PAGE, path.join(webDir, 'invalid.html'));
    t = await startTestServer({ demo: false, config: { webDir } });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const get = (urlPath: string, userAgent: string) =>
    t.anon.request('GET', urlPath, undefined, { 'user-agent': userAgent });

  it.each(['/', '/services', '/service/12?tab=items'])(
    'sends IE 11 the invalid page on %s',
    async (urlPath) => {
      const res = await get(urlPath, IE11);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toContain('id="invalid-message"');
      expect(res.body).toContain('<title>Fleetkeep</title>');
      expect(res.body).not.toContain('id="root"');
    },
  );

  it('sends IE 9 (MSIE) the invalid page too', async () => {
    const res = await get('/dashboard', IE9);
    expect(res.body).toContain('id="invalid-message"');
  });

  it.each(['/', '/services'])('sends Chrome the application on %s', async (urlPath) => {
    const res = await get(urlPath, CHROME);
    expect(res.status).toBe(200);
    expect(res.body).toBe(INDEX);
    expect(res.headers.get('vary')).toMatch(/user-agent/i);
  });

  it('sends the application when there is no User-Agent', async () => {
    const res = await t.anon.get('/services');
    expect(res.body).toBe(INDEX);
  });

  it('leaves the API alone for IE 11', async () => {
    const res = await get('/api/ping', IE11);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof res.body).toBe('object');
    expect(JSON.stringify(res.body)).not.toContain('invalid-message');
  });

  it('answers an unknown API path with the JSON 404, not the invalid page', async () => {
    const res = await get('/api/no-such-call', IE11);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

/** The page's own script must run in Internet Explorer 9 to 11, so ES5 syntax and built-ins only. */
describe('the invalid page script', () => {
  const script = /<script>([\s\S]*?)<\/script>/.exec(fs.readFileSync(INVALID_PAGE, 'utf8'))?.[1] ?? '';

  /** Built-ins newer than ES5 that a linter's "modernising" fix likes to bring in. */
  const NEWER_BUILT_INS = [
    'Object.hasOwn',
    'Object.assign',
    'Object.entries',
    'Object.values',
    'Object.fromEntries',
    'Array.from',
    'Array.of',
    'Array.prototype.includes',
    'Array.prototype.find',
    'Array.prototype.findIndex',
    'Array.prototype.at',
    'Array.prototype.flat',
    'String.prototype.includes',
    'String.prototype.startsWith',
    'String.prototype.endsWith',
    'String.prototype.padStart',
    'String.prototype.replaceAll',
    'String.prototype.at',
    'Promise',
    'Map',
    'Set',
    'WeakMap',
    'Symbol',
    'Reflect',
    'Proxy',
  ];

  /** Runs the script in a fresh context without those built-ins; returns the texts and the page language. */
  function run(navigator: Record<string, unknown>) {
    const texts: Record<string, string> = {};
    const document = {
      documentElement: {
        lang: 'en',
        setAttribute(_name: string, value: string) {
          this.lang = value;
        },
      },
      getElementById: (id: string) => ({
        firstChild: null,
        removeChild() {},
        appendChild: (node: { text: string }) => {
          texts[id] = node.text;
        },
      }),
      createTextNode: (text: string) => ({ text }),
    };
    const context = vm.createContext({ document, window: { navigator } });
    vm.runInContext(NEWER_BUILT_INS.map((name) => `delete ${name};`).join('\n'), context);
    vm.runInContext(script, context);
    return {
      lang: document.documentElement.lang,
      headline: texts['invalid-headline'],
      hint: texts['invalid-hint'],
    };
  }

  it('has ES5 syntax only (compiling it down to ES5 changes nothing)', () => {
    expect(script).toContain('invalid-headline');
    const compile = (target: ts.ScriptTarget) =>
      ts.transpileModule(script, { compilerOptions: { target, removeComments: true } }).outputText;
    expect(compile(ts.ScriptTarget.ES5)).toBe(compile(ts.ScriptTarget.ESNext));
  });

  it("takes the language from navigator.languages, then language, then IE's userLanguage", () => {
    expect(run({ languages: ['de-DE', 'en'], language: 'fr-FR' })).toMatchObject({
      lang: 'de',
      headline: 'Dieser Browser wird nicht unterstützt.',
    });
    expect(run({ language: 'fr-FR', userLanguage: 'ru' }).lang).toBe('fr');
    expect(run({ userLanguage: 'uk-UA' })).toMatchObject({
      lang: 'uk',
      headline: 'Цей браузер не підтримується.',
    });
  });

  it('reads Brazilian Portuguese from br and falls back to English', () => {
    expect(run({ language: 'pt-BR' })).toMatchObject({
      lang: 'pt-BR',
      headline: 'Este navegador não é compatível.',
    });
    for (const navigator of [{ language: 'ja-JP' }, { language: 'constructor' }, { languages: [] }, {}]) {
      expect(run(navigator)).toMatchObject({ lang: 'en', headline: 'This browser is not supported.' });
    }
  });

  it('names the four browsers in every one of the 23 languages', () => {
    const codes = fs
      .readdirSync(path.resolve(import.meta.dirname, '../../../core/locales'))
      .map((file) => file.replace(/\.json$/, ''));
    expect(codes).toHaveLength(23);
    const english = run({ language: 'en' });
    for (const code of codes) {
      const shown = run({ language: code === 'br' ? 'pt-BR' : code });
      expect(shown.lang, code).toBe(code === 'br' ? 'pt-BR' : code);
      if (code !== 'en') expect(shown.headline, code).not.toBe(english.headline);
      for (const browser of ['Chrome', 'Firefox', 'Edge', 'Safari'])
        expect(shown.hint, code).toContain(browser);
    }
  });
});
