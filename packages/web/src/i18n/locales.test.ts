import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, languageFile } from './languages.ts';

/**
 * Every locale file has every key, real translations, the plural forms Intl asks for, same placeholders.
 * The files live in core (packages/core/locales), read by the web at /i18n/{lang}.json and by the server.
 */

const DIR = path.resolve(import.meta.dirname, '../../../core/locales');
const SRC = path.resolve(import.meta.dirname, '..');
/** Server code that writes user-facing text (mails, reports) through its translator. */
const SERVER_SRC = path.resolve(import.meta.dirname, '../../../server/src');
const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * Values that may equal the English ones: brand names, and true cognates spelled alike in a language.
 * Kept short on purpose; anything else identical to English is an untranslated string.
 */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  '*': [
    'app.name',
    'common.ok',
    'settings.layerOsm',
    'meter.src_osmand',
    'meter.src_teltonika',
    'meter.src_traccar',
  ],
  de: [
    'issues.statusLabel',
    'imports.field.status',
    'header.navigation',
    'screen.migration',
    'tokens.count_one',
    'objects.status',
    'setup.organisation',
    'reports.col.service',
    'reports.col.services_count',
    'reports.col.status',
    'vehicle.fuelDiesel',
    'vehicle.fuelHybrid',
  ],
  fr: [
    'issues.description',
    'issues.photos',
    'issues.note',
    'header.navigation',
    'header.notifications',
    'settings.notifications',
    'fleetAdmin.tabNotifications',
    'menu.activation',
    'menu.administration',
    'menu.docs',
    'screen.migration',
    'objects.description',
    'objects.code',
    'services.actions',
    'setup.organisation',
    'setup.distance',
    'setup.miles',
    'setup.litres',
    'reports.col.date',
    'reports.col.line_type',
    'vehicle.photo',
    'inspections.menu',
    'inspections.title',
    'documents.title',
    'documents.tab',
  ],
  es: ['tokens.count_one', 'tokens.count_other'],
  it: ['login.password', 'tokens.count_one'],
  'pt-br': [
    'issues.statusLabel',
    'imports.field.status',
    'tokens.count_one',
    'tokens.count_other',
    'reports.col.status',
  ],
  ro: ['tokens.count_one', 'objects.interval', 'objects.cost', 'reports.col.cost', 'reports.col.interval'],
  nl: [
    'issues.statusLabel',
    'imports.field.status',
    'issues.status.open',
    'tokens.count_one',
    'tokens.count_other',
    'objects.period_week',
    'objects.code',
    'objects.interval',
    'objects.status',
    'services.object',
    'controls.filtersCount',
    'reports.col.interval',
    'reports.col.object',
    'reports.col.status',
  ],
  hr: [
    'issues.statusLabel',
    'imports.field.status',
    'tokens.count_one',
    'objects.interval',
    'reports.col.interval',
    'reports.col.status',
  ],
  sr: [
    'issues.statusLabel',
    'imports.field.status',
    'tokens.count_one',
    'objects.interval',
    'reports.col.interval',
    'reports.col.period',
    'reports.col.status',
    'reports.export.period',
  ],
  pl: ['issues.statusLabel', 'imports.field.status', 'tokens.count_one', 'reports.col.status'],
  hu: ['tokens.count_one'],
  cs: ['tokens.count_one', 'objects.interval', 'reports.col.interval'],
  az: [
    'imports.field.model',
    'issues.statusLabel',
    'imports.field.status',
    'tokens.count_one',
    'services.status',
    'reports.col.status',
    'vehicle.model',
  ],
  tr: ['imports.field.model', 'vehicle.model'],
};

function flatten(value: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (typeof value === 'string') out[prefix] = value;
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

function load(lang: (typeof LANGUAGES)[number]): Record<string, string> {
  return flatten(JSON.parse(fs.readFileSync(path.join(DIR, `${languageFile(lang)}.json`), 'utf8')));
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const en = load('en');
const singleKeys = Object.keys(en).filter((k) => !PLURAL.test(k));
const pluralBases = [
  ...new Set(
    Object.keys(en)
      .filter((k) => PLURAL.test(k))
      .map((k) => k.replace(PLURAL, '')),
  ),
];

describe('locale files', () => {
  it('there is one file per language of spec §1', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual(LANGUAGES.map((l) => `${languageFile(l)}.json`).sort());
  });

  for (const lang of LANGUAGES) {
    describe(lang, () => {
      const messages = load(lang);
      const same = new Set([...(SAME_AS_ENGLISH['*'] ?? []), ...(SAME_AS_ENGLISH[lang] ?? [])]);

      it('has every key and no unknown one', () => {
        expect(singleKeys.filter((k) => !(k in messages))).toEqual([]);
        const known = (k: string) => singleKeys.includes(k) || pluralBases.includes(k.replace(PLURAL, ''));
        expect(Object.keys(messages).filter((k) => !known(k))).toEqual([]);
      });

      it('has the plural forms of its language (Intl plural rules)', () => {
        const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
        for (const base of pluralBases) {
          expect(
            categories.filter((c) => !(`${base}_${c}` in messages)),
            base,
          ).toEqual([]);
        }
      });

      it('keeps the placeholders of every message', () => {
        for (const [key, text] of Object.entries(messages)) {
          const enKey = key in en ? key : `${key.replace(PLURAL, '')}_other`;
          expect(placeholders(text), key).toEqual(placeholders(en[enKey] ?? ''));
        }
      });

      if (lang === 'en') return;
      it('is translated (no value identical to English beyond the allowed list)', () => {
        const identical = Object.entries(messages)
          .filter(([key, text]) => en[key] === text && !same.has(key))
          .map(([key]) => key);
        expect(identical).toEqual([]);
      });
    });
  }
});

/** The source files (not tests) under a folder. */
function sources(dir: string, files: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, files);
    else if (/\.tsx?$/.test(e.name) && !e.name.includes('.test.')) files.push(p);
  }
  return files;
}

const isKnown = (key: string) => key in en || pluralBases.includes(key);

describe('source strings', () => {
  it('every literal translation key used in the web exists in English', () => {
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bt\('([\w.]+)'/g)) used.add(m[1]!);
      for (const m of text.matchAll(/'((?:menu|screen|settings|login|tokens|status|common)\.[\w.]+)'/g))
        used.add(m[1]!);
    }
    expect([...used].filter((k) => !isKnown(k))).toEqual([]);
    expect(used.size).toBeGreaterThan(50);
  });

  it('every literal translation key used by the server exists in English', () => {
    const used = new Set<string>();
    for (const file of sources(SERVER_SRC))
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/\bt\('([\w.]+)'/g)) used.add(m[1]!);
    expect([...used].filter((k) => !isKnown(k))).toEqual([]);
  });
});
