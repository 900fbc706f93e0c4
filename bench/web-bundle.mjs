// The SPA's initial bundle (DESIGN §9): what a first visit downloads before the app can render, i.e.
// the scripts and style sheets that packages/web/dist/index.html references, raw and gzip-compressed.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ROOT } from '../scripts/lib.mjs';
import { BenchError } from './lib.mjs';

const DIST = path.join(ROOT, 'packages/web/dist');

function sizes(file) {
  const bytes = fs.readFileSync(file);
  return { bytes: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
}

export const webBundle = {
  id: 'web_bundle',
  title: 'SPA initial bundle (gzip)',
  async run() {
    const indexFile = path.join(DIST, 'index.html');
    if (!fs.existsSync(indexFile))
      throw new BenchError('packages/web/dist/index.html is missing (web build)');
    const html = fs.readFileSync(indexFile, 'utf8');
    // <script src>, <link rel="modulepreload" href> and <link rel="stylesheet" href> of index.html.
    const initial = new Set(
      [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]),
    );
    const assetsDir = path.join(DIST, 'assets');
    const files = fs.existsSync(assetsDir)
      ? fs
          .readdirSync(assetsDir)
          .filter((f) => /\.(js|css)$/.test(f))
          .map((f) => {
            const rel = `assets/${f}`;
            return { file: rel, initial: initial.has(rel), ...sizes(path.join(DIST, rel)) };
          })
          .sort((a, b) => b.gzip - a.gzip)
      : [];
    const sum = (list, key) => list.reduce((n, f) => n + f[key], 0);
    const initialJs = files.filter((f) => f.initial && f.file.endsWith('.js'));
    const initialCss = files.filter((f) => f.initial && f.file.endsWith('.css'));
    const allJs = files.filter((f) => f.file.endsWith('.js'));
    if (initialJs.length === 0) throw new BenchError('index.html references no script in assets/');
    return {
      initial_js_bytes: sum(initialJs, 'bytes'),
      initial_js_gzip: sum(initialJs, 'gzip'),
      initial_css_gzip: sum(initialCss, 'gzip'),
      all_js_bytes: sum(allJs, 'bytes'),
      all_js_gzip: sum(allJs, 'gzip'),
      js_files: allJs.length,
      files,
    };
  },
};

export const benchmarks = [webBundle];
