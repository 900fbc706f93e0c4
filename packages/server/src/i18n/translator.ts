import { DEFAULT_LANGUAGE, type Language, resolveLanguage } from '@fleetkeep/core';
import i18next, { type TOptions } from 'i18next';
import { type Messages, messagesOf } from './locales.js';

/**
 * Server-side translations (e-mails, PDF/XLSX reports, report mails) from the same locale files and with
 * the same i18next set-up as the web (`packages/web/src/i18n/index.ts`): plurals through Intl
 * (`key_one`, `key_few`, ... as spec §9 "Plural rules"), `{{name}}` interpolation, English for unknown
 * languages and for keys a language lacks.
 *
 * Interpolated values are not escaped (as in the web, where React escapes): an HTML writer escapes what it
 * puts into markup.
 */
export type Translate = (key: string, options?: TOptions) => string;

/** A translate function over given messages of the language and of English (the fallback). */
export function createTranslate(lang: Language, messages: Messages, english: Messages): Translate {
  const instance = i18next.createInstance();
  const resources = { [DEFAULT_LANGUAGE]: { translation: english }, [lang]: { translation: messages } };
  // Resources are given, so init completes synchronously (initAsync: false).
  void instance.init({
    lng: lang,
    fallbackLng: DEFAULT_LANGUAGE,
    lowerCaseLng: true,
    supportedLngs: false,
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  const t = instance.getFixedT(lang);
  return (key, options) => String(t(key, options));
}

const translators = new Map<Language, Translate>();

/**
 * The translate function of a user's language (settings `lang`; `pt-br` or `br`, any case); unknown
 * languages get English. Each language's file is read and its i18next instance built once per process.
 */
export function translator(lang: string | null | undefined): Translate {
  const resolved = resolveLanguage(lang);
  let t = translators.get(resolved);
  if (!t) {
    t = createTranslate(resolved, messagesOf(resolved), messagesOf(DEFAULT_LANGUAGE));
    translators.set(resolved, t);
  }
  return t;
}
