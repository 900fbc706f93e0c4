import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGES, languageFile } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { LOCALES_DIR } from './locales.js';

/**
 * GET /i18n/{file}.json (DESIGN §1, spec §7 "Language and help files"): the web's language files, served
 * from their one home in core rather than copied into the web build. The web asks with `?v={release}`;
 * replies carry an ETag and are revalidated (304 when unchanged), so an edited locale file reaches the
 * browser without a release change. The help phrases (/helpi18n) stay static files of the web build.
 */

const FILES = new Set<string>(LANGUAGES.map(languageFile));

interface LocaleFile {
  mtimeMs: number;
  body: Buffer;
  etag: string;
}

export function localeRoutes(): FastifyPluginAsync {
  const cache = new Map<string, LocaleFile>();

  /** The file's bytes, read again only when it changed on disk (the merge script edits them in place). */
  async function load(name: string): Promise<LocaleFile> {
    const file = path.join(LOCALES_DIR, `${name}.json`);
    const { mtimeMs } = await fs.stat(file);
    const cached = cache.get(name);
    if (cached?.mtimeMs === mtimeMs) return cached;
    const body = await fs.readFile(file);
    const entry = { mtimeMs, body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
    cache.set(name, entry);
    return entry;
  }

  return async (app) => {
    app.get<{ Params: { file: string } }>(
      '/i18n/:file',
      { config: { public: true }, schema: { hide: true } },
      async (req, reply) => {
        const name = req.params.file.endsWith('.json') ? req.params.file.slice(0, -5) : '';
        if (!FILES.has(name)) return reply.callNotFound();
        const { body, etag } = await load(name);
        reply.header('cache-control', 'no-cache').header('etag', etag);
        if (req.headers['if-none-match'] === etag) return reply.status(304).send();
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
  };
}
