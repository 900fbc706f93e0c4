import fs from 'node:fs';
import path from 'node:path';
import { LANGUAGES } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { helpFile } from './phrases.ts';
import { HELP_GROUPS } from './sections.ts';

/** Every help file has every phrase the dialog asks for, translated. */

const DIR = path.resolve(import.meta.dirname, '../../../public/helpi18n');
const load = (lang: string): Record<string, string> =>
  JSON.parse(fs.readFileSync(path.join(DIR, `${helpFile(lang)}.json`), 'utf8'));

const KEYS = HELP_GROUPS.flatMap((g) => [
  `${g.id}.title`,
  ...(g.sections.length === 0 ? [`${g.id}.text`] : g.sections.flatMap((s) => [`${s}.title`, `${s}.text`])),
]).sort();

const en = load('en');

describe('help files (/helpi18n)', () => {
  it('holds exactly the 23 languages, pt-br as br', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual(LANGUAGES.map((l) => `${helpFile(l)}.json`).sort());
  });

  for (const lang of LANGUAGES) {
    it(`${lang}: has every phrase, non-empty, texts translated`, () => {
      const phrases = load(lang);
      expect(Object.keys(phrases).sort()).toEqual(KEYS);
      for (const key of KEYS) expect(phrases[key]?.trim(), key).toBeTruthy();
      if (lang !== 'en') {
        const same = KEYS.filter((k) => k.endsWith('.text') && phrases[k] === en[k]);
        expect(same).toEqual([]);
      }
    });
  }
});
