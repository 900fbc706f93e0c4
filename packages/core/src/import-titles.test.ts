import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNIT_TYPES } from './constants.js';
import { VEHICLE_FUEL_TYPES } from './contracts/fleets.js';
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
    // The words a cell may name a value by (import-units.ts): unit types and fuel types, in every language.
    const valueTitles = (keyOf: (value: string) => string, values: readonly string[]) =>
      Object.fromEntries(
        values.map((value) => {
          const found = new Set<string>();
          for (const locale of locales) {
            const t = text(locale, keyOf(value));
            expect(typeof t, `${keyOf(value)} in every language`).toBe('string');
            found.add((t as string).trim());
          }
          return [value, [...found].sort()];
        }),
      );
    const values = {
      unit_type: valueTitles((n) => `intervals.vehicle.${n}`, UNIT_TYPES),
      fuel_type: valueTitles((f) => `vehicle.fuel${f[0]!.toUpperCase()}${f.slice(1)}`, VEHICLE_FUEL_TYPES),
    };
    const source = `// Built from the locale files by import-titles.test.ts (run it with -u after a change); do not edit.
import type { ImportKind } from './contracts/imports.js';

/** Per import kind and field: its column's titles in Fleetkeep's UI, in all 23 languages. */
export const IMPORT_TITLES: Readonly<Partial<Record<ImportKind, Readonly<Record<string, readonly string[]>>>>> =
  ${JSON.stringify(titles)};

/** Per value column (unit type, fuel type) and stored value: its names in all 23 languages. */
export const IMPORT_VALUE_TITLES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> =
  ${JSON.stringify(values)};
`;
    await expect(source).toMatchFileSnapshot('./import-titles.ts');
  });
});
