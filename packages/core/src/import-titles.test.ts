import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMPORT_COLUMNS } from './contracts/imports.js';
import { IMPORT_TITLE_KEYS } from './import-synonyms.js';

/**
 * import-titles.ts holds the translated column titles the import's guess matches (import-synonyms.ts
 * IMPORT_TITLE_KEYS in all 23 languages), so that the web needs no locale file but its own. This test
 * builds the file from the locale files: it fails when a translation or a key changed and the file did
 * not; `npx vitest run --project unit packages/core/src/import-titles.test.ts -u` rewrites it.
 */
describe('the translated import titles', () => {
  it('are those of the locale files', async () => {
    const dir = path.resolve(import.meta.dirname, '../locales');
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(files).toHaveLength(23);
    const locales = files.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as unknown);
    const text = (tree: unknown, key: string) =>
      key
        .split('.')
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
    const titles: Record<string, Record<string, string[]>> = {};
    for (const [kind, columns] of Object.entries(IMPORT_COLUMNS)) {
      const out: Record<string, string[]> = {};
      const extra = IMPORT_TITLE_KEYS[kind as keyof typeof IMPORT_COLUMNS] ?? {};
      for (const { key: field } of columns) {
        const keys = [`imports.field.${field}`, ...(extra[field] ?? [])];
        const found = new Set<string>();
        for (const locale of locales)
          for (const key of keys) {
            const t = text(locale, key);
            expect(typeof t, `${key} in every language`).toBe('string');
            found.add((t as string).trim());
          }
        out[field] = [...found].sort();
      }
      titles[kind] = out;
    }
    const source = `// Built from the locale files by import-titles.test.ts (run it with -u after a change); do not edit.
import type { ImportKind } from './contracts/imports.js';

/** Per import kind and field: its column's titles in Fleetkeep's UI, in all 23 languages. */
export const IMPORT_TITLES: Readonly<Partial<Record<ImportKind, Readonly<Record<string, readonly string[]>>>>> =
  ${JSON.stringify(titles)};
`;
    await expect(source).toMatchFileSnapshot('./import-titles.ts');
  });
});
