import { ImportError, ImportFileError, LANGUAGES, UnitImportError } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { type Messages, messagesOf } from '../../i18n/locales.js';
import { FileError } from './parse.js';

/** A dotted key's text in a locale file, or undefined. */
function textOf(messages: Messages, key: string): string | undefined {
  let at: string | Messages | undefined = messages;
  for (const part of key.split('.')) at = typeof at === 'object' ? at[part] : undefined;
  return typeof at === 'string' ? at : undefined;
}

/**
 * Every reason the imports can show is a key with a text in all 23 languages: the parse call's file
 * refusals (FileError), the row checks of core (ImportError, which the server sends as detail messages),
 * and the browser's own two (a file over the limit, a failed upload). A missing one would show as a raw
 * key on the screen.
 */
describe('import reasons', () => {
  const keys = [
    ...new Set([
      ...Object.values(FileError),
      ...Object.values(ImportFileError),
      ...Object.values(ImportError),
      ...Object.values(UnitImportError),
    ]),
  ];
  it('enumerates the reasons', () => {
    expect(keys).toContain('imports.file.badXlsx');
    expect(keys).toContain('imports.err.unit');
    expect(keys).toContain('imports.err.deviceTaken');
    // The units import's VIN reasons are the profile tab's own texts.
    expect(keys.every((k) => /^(imports\.(file|err)|vehicle)\.\w+$/.test(k))).toBe(true);
  });
  for (const lang of LANGUAGES)
    it(`has a text for each in ${lang}`, () => {
      const messages = messagesOf(lang);
      const missing = keys.filter((k) => {
        const text = textOf(messages, k);
        return !text?.trim() || text.includes('imports.') || text.includes('vehicle.');
      });
      expect(missing).toEqual([]);
    });
});
