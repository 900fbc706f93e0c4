import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language, languageFile } from '@fleetkeep/core';

/** The languages of spec §1 and their locale files are core's (`format/languages.ts`), shared with the server. */
export { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language, languageFile };

/** Each language by its own name, for the language picker (not translated by design). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  ru: 'Русский',
  en: 'English',
  es: 'Español',
  ro: 'Română',
  nl: 'Nederlands',
  'pt-br': 'Português (Brasil)',
  bg: 'Български',
  et: 'Eesti',
  az: 'Azərbaycan',
  hr: 'Hrvatski',
  fi: 'Suomi',
  fr: 'Français',
  tr: 'Türkçe',
  pl: 'Polski',
  hu: 'Magyar',
  de: 'Deutsch',
  it: 'Italiano',
  sr: 'Srpski',
  cs: 'Čeština',
  el: 'Ελληνικά',
  th: 'ไทย',
  uk: 'Українська',
  lt: 'Lietuvių',
};

/**
 * The page language from the browser (spec §2 "Old browsers"): the part before the dash, except that
 * Brazilian Portuguese keeps its region, the one language of the list that carries one.
 */
export function browserLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('pt')) return 'pt-br';
    const base = lower.split('-')[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}
