import {
  type ColumnDef,
  createTable,
  type FilterFn,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  type RowSelectionState,
  type SortingFn,
  type TableOptionsResolved,
  type TableState,
} from '@tanstack/react-table';
import { describe, expect, it } from 'vitest';
import {
  allSelected,
  compareValues,
  filterRows,
  type SortValue,
  searchHaystack,
  searchNeedle,
  selectAll,
  selectOne,
  someSelected,
  sortRows,
} from './rules.ts';

/**
 * The data table's own row model (filter, sort, selection) against TanStack Table's, which the table used
 * before (no object per row): the same rows in the same order, and the same selection states.
 */

interface Item {
  id: number;
  name: string;
  km: number | null;
  kind: string;
}

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['Unit 10', 'unit 2', 'Unit 1', 'alpha', 'Beta', 'Ölwechsel', 'oil', '', 'Bremsen 3'];
const KINDS = ['a', 'b', 'c'];

function items(count: number, seed: number): Item[] {
  const next = random(seed);
  const pick = <V>(list: readonly V[]) => list[Math.floor(next() * list.length)] as V;
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: pick(NAMES),
    km: next() < 0.2 ? null : Math.round(next() * 50) - 10,
    kind: pick(KINDS),
  }));
}

const VALUES: Record<string, (row: Item) => SortValue> = {
  name: (r) => r.name,
  km: (r) => r.km,
  kind: (r) => r.kind,
};

/** TanStack's row model as DataTable configured it before (natural sort, equals filters, one global column). */
function tanstack(
  data: Item[],
  state: { sort?: { id: string; desc: boolean }; filters?: Record<string, string>; search?: string },
  rowSelection: RowSelectionState = {},
) {
  const sortNatural: SortingFn<Item> = (a, b, id) =>
    compareValues(a.getValue<SortValue>(id), b.getValue<SortValue>(id));
  const equalsFilter: FilterFn<Item> = (row, id, wanted: string) => String(row.getValue(id) ?? '') === wanted;
  const globalFilter: FilterFn<Item> = (row, _id, needle: string) =>
    needle === '' || haystack(row.original).includes(needle);
  globalFilter.resolveFilterValue = (query: string) => searchNeedle(String(query ?? ''));
  const columns: ColumnDef<Item>[] = Object.entries(VALUES).map(([id, value]) => ({
    id,
    accessorFn: value,
    sortingFn: sortNatural,
    filterFn: equalsFilter,
  }));
  const tableState: Partial<TableState> = {
    sorting: state.sort ? [state.sort] : [],
    columnFilters: Object.entries(state.filters ?? {}).map(([id, value]) => ({ id, value })),
    globalFilter: state.search ?? '',
    rowSelection,
  };
  const options: TableOptionsResolved<Item> = {
    data,
    columns,
    getRowId: (r) => String(r.id),
    state: tableState,
    onStateChange: () => undefined,
    renderFallbackValue: null,
    enableRowSelection: true,
    globalFilterFn: globalFilter,
    getColumnCanGlobalFilter: (column) => column.id === 'name',
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
  };
  const table = createTable(options);
  table.setOptions((prev) => ({ ...prev, state: { ...table.initialState, ...tableState } }));
  return table;
}

/** A row's search text: every column, as the table's search reads it. */
const haystack = (row: Item) => searchHaystack([row.name, String(row.km ?? ''), row.kind]);

const idsOf = (rows: readonly Item[]) => rows.map((r) => r.id);

describe('sortRows: keys read once per row, the same order as before', () => {
  const data = items(500, 7);
  for (const id of Object.keys(VALUES))
    for (const desc of [false, true])
      it(`${id} ${desc ? 'descending' : 'ascending'}`, () => {
        const before = tanstack(data, { sort: { id, desc } })
          .getRowModel()
          .rows.map((r) => r.original.id);
        const value = VALUES[id] as (row: Item) => SortValue;
        expect(idsOf(sortRows(data, value, desc))).toEqual(before);
      });

  it('keeps equal keys in their original order and puts empties last ascending, first descending', () => {
    const rows = [
      { id: 1, name: 'b', km: null, kind: 'a' },
      { id: 2, name: 'a', km: 5, kind: 'a' },
      { id: 3, name: 'b', km: 5, kind: 'a' },
      { id: 4, name: '', km: 1, kind: 'a' },
    ];
    expect(idsOf(sortRows(rows, (r) => r.km, false))).toEqual([4, 2, 3, 1]);
    expect(idsOf(sortRows(rows, (r) => r.km, true))).toEqual([1, 2, 3, 4]);
    expect(idsOf(sortRows(rows, (r) => r.name, false))).toEqual([2, 1, 3, 4]);
  });

  it('reads each key once per row', () => {
    const data = items(200, 3);
    let reads = 0;
    sortRows(
      data,
      (r) => {
        reads++;
        return r.km;
      },
      false,
    );
    expect(reads).toBe(data.length);
  });
});

describe('filterRows: column filters and the search, as before', () => {
  const data = items(400, 11);
  const cases: { filters?: Record<string, string>; search?: string }[] = [
    { filters: { kind: 'b' } },
    { filters: { kind: 'a', km: '5' } },
    { search: 'UNIT' },
    { search: 'olw' },
    { search: 'unit', filters: { kind: 'c' } },
    { search: 'no such thing' },
    { search: '1' },
    { search: '   ' },
  ];
  for (const c of cases)
    it(JSON.stringify(c), () => {
      const before = tanstack(data, c)
        .getRowModel()
        .rows.map((r) => r.original.id);
      const needle = c.search ? searchNeedle(c.search) : '';
      const equals = Object.entries(c.filters ?? {}).map(([id, wanted]) => ({
        value: VALUES[id] as (row: Item) => SortValue,
        wanted,
      }));
      const matches = needle === '' ? null : (r: Item) => haystack(r).includes(needle);
      expect(idsOf(filterRows(data, equals, matches))).toEqual(before);
    });

  it('returns the same array when nothing filters', () => {
    expect(filterRows(data, [], null)).toBe(data);
  });
});

describe('selection: the select-all box and row boxes as before', () => {
  const data = items(30, 5);
  const shown = tanstack(data, { filters: { kind: 'a' } })
    .getRowModel()
    .rows.map((r) => r.id);

  it('select all selects the shown rows and keeps others; clearing removes the shown ones only', () => {
    const other = String(data.find((r) => r.kind !== 'a')?.id);
    const start = { [other]: true as const };
    const table = tanstack(data, { filters: { kind: 'a' } }, start);
    let expected: RowSelectionState = {};
    table.setOptions((prev) => ({
      ...prev,
      onRowSelectionChange: (u) => {
        expected = typeof u === 'function' ? u(start) : u;
      },
    }));
    table.toggleAllRowsSelected(true);
    const selected = selectAll(start, shown, true);
    expect(selected).toEqual(expected);
    expect(selectAll(selected, shown, false)).toEqual(start);
  });

  it('all and some selected as TanStack reports them', () => {
    const samples = [{}, selectOne({}, shown[0] as string, true), selectAll({}, shown, true)];
    for (const selection of samples) {
      const table = tanstack(data, { filters: { kind: 'a' } }, selection);
      expect(allSelected(selection, shown)).toBe(table.getIsAllRowsSelected());
      expect(someSelected(selection, shown)).toBe(table.getIsSomeRowsSelected());
    }
  });

  it('a row box adds and removes its id', () => {
    const one = selectOne({}, '7', true);
    expect(one).toEqual({ '7': true });
    expect(selectOne(one, '7', false)).toEqual({});
  });
});
