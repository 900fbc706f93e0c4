import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, languageFile } from './languages.ts';

/**
 * The terminology scan: each product term has one translation per language. The
 * glossary (packages/core/glossary.json) names, per term, its word in each of the 23 languages and the
 * keys whose texts must use it; words a language must not use for it anywhere; terms whose words must
 * differ (two filters must not read alike).
 */

const CORE = path.resolve(import.meta.dirname, '../../../core');
const DIR = path.join(CORE, 'locales');

interface Term {
  meaning: string;
  /** The word of each language; several forms where the language inflects the stem (fi väli/välejä). */
  words: Record<string, string | string[]>;
  keys: string[];
  avoid?: Record<string, string[]>;
  except?: string[];
  distinct?: string[];
}

const glossary = JSON.parse(fs.readFileSync(path.join(CORE, 'glossary.json'), 'utf8')) as {
  terms: Record<string, Term>;
};

function flatten(tree: Record<string, unknown>, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v as Record<string, unknown>, key)) out.set(kk, vv);
  }
  return out;
}

/** Compared without case, accents or apostrophe style, and without {{placeholders}}. */
export function normalise(text: string): string {
  return text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[’ʼ`´]/g, "'")
    .toLocaleLowerCase('en');
}

/** The forms of a term's word in one language, normalised. */
function forms(term: Term, lang: string): string[] {
  const word = term.words[lang] ?? '';
  return (Array.isArray(word) ? word : [word]).map(normalise);
}

const locales = new Map<string, Map<string, string>>(
  LANGUAGES.map((lang) => [
    lang,
    flatten(JSON.parse(fs.readFileSync(path.join(DIR, `${languageFile(lang)}.json`), 'utf8'))),
  ]),
);

describe('glossary (one translation per term and language)', () => {
  it('normalises case, accents, apostrophes and placeholders', () => {
    expect(normalise('Συντήρηση')).toBe('συντηρηση');
    expect(normalise('Type d’unité')).toBe("type d'unite");
    expect(normalise('{{service}} Wartung')).toBe('  wartung');
  });

  it('names a word in every language for every term, and only known keys', () => {
    const english = locales.get('en') as Map<string, string>;
    for (const [name, term] of Object.entries(glossary.terms)) {
      expect(Object.keys(term.words).sort(), name).toEqual([...LANGUAGES].sort());
      expect(term.keys.length, name).toBeGreaterThan(0);
      expect(
        term.keys.filter((k) => !english.has(k)),
        name,
      ).toEqual([]);
      for (const other of term.distinct ?? [])
        expect(glossary.terms[other], `${name} → ${other}`).toBeDefined();
    }
  });

  for (const [name, term] of Object.entries(glossary.terms)) {
    describe(name, () => {
      it('every listed text uses the word of its language', () => {
        const wrong: string[] = [];
        for (const [lang, texts] of locales) {
          const words = forms(term, lang);
          for (const key of term.keys) {
            const text = texts.get(key) ?? '';
            if (!words.some((w) => normalise(text).includes(w)))
              wrong.push(`${lang} ${key}: "${text}" lacks "${term.words[lang]}"`);
          }
        }
        expect(wrong).toEqual([]);
      });

      it('no text of a language uses a word it avoids for the term', () => {
        const wrong: string[] = [];
        for (const [lang, words] of Object.entries(term.avoid ?? {})) {
          const texts = locales.get(lang);
          expect(texts, lang).toBeDefined();
          for (const [key, text] of texts ?? []) {
            if (term.except?.includes(key)) continue;
            for (const w of words)
              if (normalise(text).includes(normalise(w))) wrong.push(`${lang} ${key}: "${text}" uses "${w}"`);
          }
        }
        expect(wrong).toEqual([]);
      });

      it('reads differently from the terms it must not be confused with', () => {
        const same: string[] = [];
        for (const other of term.distinct ?? []) {
          const them = glossary.terms[other] as Term;
          for (const lang of LANGUAGES) {
            for (const mine of forms(term, lang)) {
              for (const theirs of forms(them, lang))
                if (mine.includes(theirs) || theirs.includes(mine))
                  same.push(`${lang}: "${term.words[lang]}" vs "${them.words[lang]}"`);
              for (const key of them.keys) {
                const text = normalise(locales.get(lang)?.get(key) ?? '');
                if (text.includes(mine)) same.push(`${lang} ${key} (${other}) reads as ${name}`);
              }
            }
          }
        }
        expect(same).toEqual([]);
      });
    });
  }

  it('keeps each language to its own script (sr is written in Latin)', () => {
    const scripts: Record<string, RegExp> = {
      Cyrillic: /\p{Script=Cyrillic}/u,
      Greek: /\p{Script=Greek}/u,
      Thai: /\p{Script=Thai}/u,
    };
    const own: Record<string, string> = {
      bg: 'Cyrillic',
      ru: 'Cyrillic',
      uk: 'Cyrillic',
      el: 'Greek',
      th: 'Thai',
    };
    const wrong: string[] = [];
    for (const [lang, texts] of locales)
      for (const [key, text] of texts)
        for (const [script, pattern] of Object.entries(scripts))
          if (script !== own[lang] && pattern.test(text)) wrong.push(`${lang} ${key} (${script}): "${text}"`);
    expect(wrong).toEqual([]);
  });
});
