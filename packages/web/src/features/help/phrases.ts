import { RELEASE } from '@fleetkeep/core';

/**
 * Help phrases (spec §7 "Language and help files", §8): GET /helpi18n/{lang}.json?v={release}, pt-br
 * read from `br`; each language is fetched once and cached. A file that fails logs 'Phrases were not
 * found' to the console only; a phrase with no translation shows its key, and the key is logged.
 */

export type Phrases = Readonly<Record<string, string>>;

export function helpFile(lang: string): string {
  return lang === 'pt-br' ? 'br' : lang;
}

export function helpUrl(lang: string): string {
  return `/helpi18n/${helpFile(lang)}.json?v=${RELEASE}`;
}

/** Looks a key up in the language, then in English; else the key itself, reported through `onMissing`. */
export function lookupPhrase(
  key: string,
  phrases: Phrases | null,
  fallback: Phrases | null,
  onMissing: (key: string) => void = (k) => console.warn('Help phrase not translated:', k),
): string {
  const own = phrases?.[key];
  if (typeof own === 'string' && own !== '') return own;
  const en = fallback?.[key];
  if (typeof en === 'string' && en !== '') return en;
  onMissing(key);
  return key;
}

/** Splits a text into paragraphs at blank lines. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

const cache = new Map<string, Promise<Phrases | null>>();

/** The phrases of a language, fetched once; null (and the log line) when the file cannot be read. */
export function loadPhrases(lang: string, fetcher: typeof fetch = fetch): Promise<Phrases | null> {
  const file = helpFile(lang);
  let pending = cache.get(file);
  if (!pending) {
    pending = fetcher(helpUrl(lang))
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = (await res.json()) as unknown;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not a map');
        return body as Phrases;
      })
      .catch(() => {
        console.error('Phrases were not found');
        cache.delete(file);
        return null;
      });
    cache.set(file, pending);
  }
  return pending;
}

/** Empties the cache (tests). */
export function clearPhraseCache(): void {
  cache.clear();
}
