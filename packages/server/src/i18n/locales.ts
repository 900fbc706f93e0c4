import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Language, languageFile } from '@fleetkeep/core';

/**
 * The one home of the 23 locale files (spec §1, §7 "Language and help files"): packages/core/locales,
 * `{lang}.json` with pt-br stored as `br.json`. The web reads them at /i18n/{file}.json (served by
 * `routes.ts`), the server's translator reads them here.
 */

const require = createRequire(import.meta.url);

/** The folder of the locale files, found through the core package (its `./locales/*` export). */
export const LOCALES_DIR = path.dirname(require.resolve('@fleetkeep/core/locales/en.json'));

export type Messages = { [key: string]: string | Messages };

const bundles = new Map<Language, Messages>();

/** The messages of a language, read once and kept. */
export function messagesOf(lang: Language): Messages {
  let messages = bundles.get(lang);
  if (!messages) {
    const file = path.join(LOCALES_DIR, `${languageFile(lang)}.json`);
    messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Messages;
    bundles.set(lang, messages);
  }
  return messages;
}
