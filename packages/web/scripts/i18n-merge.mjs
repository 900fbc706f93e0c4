#!/usr/bin/env node
// Merges translations into the 23 locale files (a developer tool, not part of the build). The files live
// in packages/core/locales, the one home that the server (mails, reports) and the web (/i18n/{lang}.json,
// served by the server) both read.
//
//   node packages/web/scripts/i18n-merge.mjs keys.json
//
// keys.json maps a dotted key to its text in every language of spec §1:
//   { "services.tabUpcoming": { "en": "Upcoming", "ru": "Предстоящие", ..., "pt-br": "Próximos" } }
// A value of null removes the key. Every language must be given for an added key, so no locale
// falls behind. Files are written sorted, two-space indented, under a lock directory so that
// several people (or agents) merging at once do not overwrite each other.
import fs from 'node:fs';
import path from 'node:path';

const DIR = path.resolve(import.meta.dirname, '../../core/locales');
const LOCK = path.join(DIR, '.merge-lock');
// The languages are the locale files themselves (one per language of spec §1; pt-br is stored as br).
const LANGS = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => (f === 'br.json' ? 'pt-br' : f.slice(0, -5)))
  .sort();
const fileOf = (lang) => path.join(DIR, `${lang === 'pt-br' ? 'br' : lang}.json`);

/** Sorted keys at every level; groups left empty by a removal disappear. */
function sorted(value) {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.keys(value)
    .sort()
    .map((k) => [k, sorted(value[k])])
    .filter(([, v]) => typeof v === 'string' || Object.keys(v).length > 0);
  return Object.fromEntries(entries);
}

function setPath(tree, key, text, lang) {
  const parts = key.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] === 'string') throw new Error(`${key}: '${part}' is already a text, not a group`);
    node[part] ??= {};
    node = node[part];
  }
  const last = parts.at(-1);
  if (text === null) delete node[last];
  else if (typeof node[last] === 'object') throw new Error(`${key} is a group, not a text`);
  else {
    // Changing a text that exists can break its other users: say so (once, on English).
    if (typeof node[last] === 'string' && node[last] !== text && lang === 'en')
      console.warn(`changed existing key ${key}: "${node[last]}" → "${text}" (grep its other uses)`);
    node[last] = text;
  }
}

function lock() {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      return;
    } catch (err) {
      if (err.code !== 'EEXIST' || Date.now() > until) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}

const input = process.argv[2];
if (!input) {
  console.error('usage: i18n-merge.mjs keys.json');
  process.exit(2);
}
const additions = JSON.parse(fs.readFileSync(input, 'utf8'));
const problems = [];
for (const [key, texts] of Object.entries(additions)) {
  if (texts === null) continue;
  const missing = LANGS.filter((l) => typeof texts[l] !== 'string' || texts[l].trim() === '');
  if (missing.length > 0) problems.push(`${key}: missing ${missing.join(', ')}`);
  const extra = Object.keys(texts).filter((l) => !LANGS.includes(l));
  if (extra.length > 0) problems.push(`${key}: unknown languages ${extra.join(', ')}`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}

lock();
try {
  for (const lang of LANGS) {
    const file = fileOf(lang);
    const tree = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const [key, texts] of Object.entries(additions))
      setPath(tree, key, texts === null ? null : texts[lang], lang);
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(sorted(tree), null, 2)}\n`);
    fs.renameSync(tmp, file);
  }
} finally {
  fs.rmdirSync(LOCK);
}
console.log(`merged ${Object.keys(additions).length} keys into ${LANGS.length} locale files`);
