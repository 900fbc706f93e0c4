import { DEFAULT_SETTINGS, LANGUAGES } from '../constants.js';

/**
 * The 23 interface languages of spec §1 and their locale files (packages/core/locales/{file}.json, served
 * at /i18n/{file}.json, spec §7 "Language and help files"): every language is its own file name except
 * Brazilian Portuguese, stored as `br`.
 */

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = DEFAULT_SETTINGS.lang;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The locale file name of a language: pt-br maps to br. */
export function languageFile(lang: Language): string {
  return lang === 'pt-br' ? 'br' : lang;
}

/** A stored or requested language code as one of the 23 (any case, `br` for pt-br); English otherwise. */
export function resolveLanguage(value: string | null | undefined): Language {
  const lower = (value ?? '').toLowerCase();
  if (lower === 'br') return 'pt-br';
  return isLanguage(lower) ? lower : DEFAULT_LANGUAGE;
}
