import fs from 'node:fs';
import path from 'node:path';
import { LANGUAGES, languageFile, RELEASE } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

const DIR = path.resolve(import.meta.dirname, '../../../core/locales');

/** GET /i18n/{lang}.json (DESIGN §1): the web's language files, from their one home in core. */
describe('language files', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ demo: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves each of the 23 languages as its locale file, without a session', async () => {
    for (const lang of LANGUAGES) {
      const file = languageFile(lang);
      const res = await t.anon.get(`/i18n/${file}.json?v=${RELEASE}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.body, file).toEqual(JSON.parse(fs.readFileSync(path.join(DIR, `${file}.json`), 'utf8')));
    }
    const ru = await t.anon.get('/i18n/ru.json');
    expect(ru.body.objects.engineHoursUnit).toBe('м.ч.');
  });

  it('revalidates with an ETag: 304 while the file is unchanged', async () => {
    const first = await t.anon.get('/i18n/de.json');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await t.anon.request('GET', '/i18n/de.json', undefined, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    const other = await t.anon.request('GET', '/i18n/de.json', undefined, { 'if-none-match': '"old"' });
    expect(other.status).toBe(200);
    expect((await t.anon.get('/i18n/fr.json')).headers.get('etag')).not.toBe(etag);
  });

  it('compresses the file for clients that accept it', async () => {
    const res = await fetch(`${t.url}/i18n/en.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(((await res.json()) as { common: { save: string } }).common.save).toBe('Save');
  });

  it('answers 404 for anything that is not one of the 23 files', async () => {
    for (const p of [
      '/i18n/ja.json',
      '/i18n/pt-br.json',
      '/i18n/ru',
      '/i18n/..%2Fpackage.json',
      '/i18n/en.json.bak',
    ])
      expect((await t.anon.get(p)).status, p).toBe(404);
  });
});
