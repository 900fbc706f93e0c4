import { describe, expect, it } from 'vitest';
import {
  compareValues,
  csvFileName,
  csvRows,
  csvSafe,
  decodeTableState,
  encodeTableState,
  nextSort,
  searchHaystack,
  searchNeedle,
} from './rules.ts';

describe('compareValues (spec §3 natural, case-insensitive names)', () => {
  it('sorts names naturally and ignoring case', () => {
    const names = ['Unit 10', 'unit 2', 'Unit 1', 'alpha', 'Beta'];
    expect([...names].sort(compareValues)).toEqual(['alpha', 'Beta', 'Unit 1', 'unit 2', 'Unit 10']);
    expect(compareValues('abc', 'ABC')).toBe(0);
  });
  it('sorts numbers by value and empties last', () => {
    expect([10, 2, null, 1].sort(compareValues)).toEqual([1, 2, 10, null]);
    expect(['b', '', 'a', undefined].sort(compareValues)).toEqual(['a', 'b', '', undefined]);
  });
});

describe('table state in the URL', () => {
  const columns = ['description', 'lastUse'];
  it('round-trips sort, search and filters', () => {
    const state = { sort: { id: 'lastUse', desc: true }, search: 'ci pipe', filters: { description: 'x' } };
    const params = encodeTableState(new URLSearchParams('keep=1'), state);
    expect(params.get('keep')).toBe('1');
    expect(params.get('sort')).toBe('lastUse.desc');
    expect(params.get('q')).toBe('ci pipe');
    expect(decodeTableState(params, columns)).toEqual(state);
  });
  it('leaves empties out and replaces what was there', () => {
    const before = new URLSearchParams('sort=description.asc&q=a&f.description=b&page=2');
    const params = encodeTableState(before, { sort: null, search: ' ', filters: { description: '' } });
    expect(params.toString()).toBe('page=2');
  });
  it('drops unknown columns and directions', () => {
    expect(decodeTableState(new URLSearchParams('sort=secret.asc&f.x=1'), columns)).toEqual({
      sort: null,
      search: '',
      filters: {},
    });
    expect(decodeTableState(new URLSearchParams('sort=description.up'), columns).sort).toBeNull();
    expect(decodeTableState(new URLSearchParams('sort=description'), columns).sort).toEqual({
      id: 'description',
      desc: false,
    });
  });
  it('keeps two tables apart with a prefix', () => {
    const params = encodeTableState(new URLSearchParams(), { sort: null, search: 'a', filters: {} }, 't2.');
    expect(params.get('t2.q')).toBe('a');
    expect(decodeTableState(params, columns).search).toBe('');
    expect(decodeTableState(params, columns, 't2.').search).toBe('a');
  });
  it('cycles the sort of a header: ascending, descending, none', () => {
    expect(nextSort(null, 'a')).toEqual({ id: 'a', desc: false });
    expect(nextSort({ id: 'a', desc: false }, 'a')).toEqual({ id: 'a', desc: true });
    expect(nextSort({ id: 'a', desc: true }, 'a')).toBeNull();
    expect(nextSort({ id: 'a', desc: true }, 'b')).toEqual({ id: 'b', desc: false });
  });
});

describe('CSV rows', () => {
  it('writes the header row then the visible rows as text', () => {
    const rows = [
      { n: 'A', v: 1, w: null },
      { n: 'B, "b"', v: 2.5, w: 'x' },
    ];
    expect(
      csvRows(
        [
          { header: 'Name', value: (r: (typeof rows)[number]) => r.n },
          { header: 'Value', value: (r) => r.v },
          { header: 'W', value: (r) => r.w },
        ],
        rows,
      ),
    ).toEqual([
      ['Name', 'Value', 'W'],
      ['A', '1', ''],
      ['B, "b"', '2.5', 'x'],
    ]);
  });
  it('neutralises cells a spreadsheet would run as formulas (CSV injection), keeps plain numbers', () => {
    for (const evil of ['=HYPERLINK("http://x")', '+1+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx'])
      expect(csvSafe(evil)).toBe(`'${evil}`);
    for (const plain of ['-12', '+3', '-1 234.5', 'Diesel', 'a=b', '']) expect(csvSafe(plain)).toBe(plain);
    expect(csvRows([{ header: 'Station', value: (r: { s: string }) => r.s }], [{ s: '=1+1' }])).toEqual([
      ['Station'],
      ["'=1+1"],
    ]);
  });
  it('makes safe file names', () => {
    expect(csvFileName('tokens')).toBe('tokens.csv');
    expect(csvFileName('a/b:c.CSV')).toBe('a_b_c.csv');
    expect(csvFileName('  ')).toBe('export.csv');
  });
});

describe('search text of a row (spec §5: case and accents ignored, anywhere in a cell)', () => {
  const has = (cells: string[], query: string) => searchHaystack(cells).includes(searchNeedle(query));

  it('matches anywhere in any cell, ignoring case and accents', () => {
    expect(has(['Oil change', 'Škoda Octavia'], 'skoda')).toBe(true);
    expect(has(['Oil change', 'Škoda Octavia'], 'CHANGE')).toBe(true);
    expect(has(['Oil change', 'Škoda Octavia'], '  oil ')).toBe(true);
    expect(has(['Oil change', 'Škoda Octavia'], 'brake')).toBe(false);
  });

  it('never matches across two cells', () => {
    expect(has(['bulk 1', '2024'], 'bulk 12024')).toBe(false);
    expect(has(['bulk 1', '2024'], '1\u00002024')).toBe(false);
  });

  it('an empty query is an empty needle, which the table reads as every row', () => {
    expect(searchNeedle('   ')).toBe('');
  });
});
