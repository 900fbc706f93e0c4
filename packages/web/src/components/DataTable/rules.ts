/** Pure rules of the data table: natural sort, URL state, CSV rows, search text. */

import { csvSafe } from '@fleetkeep/core';
import { naturalCollator } from '../../lib/naturalSort.ts';
import { normalizeForSearch } from '../search.ts';

export type SortValue = string | number | boolean | null | undefined;

/** Ascending order of two cell values: empties last, numbers by value, text naturally. */
export function compareValues(a: SortValue, b: SortValue): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return naturalCollator.compare(String(a), String(b));
}

export interface SortState {
  id: string;
  desc: boolean;
}

/** What the URL keeps of a table: sort, global search and column filters. */
export interface TableUrlState {
  sort: SortState | null;
  search: string;
  filters: Record<string, string>;
}

export const EMPTY_STATE: TableUrlState = { sort: null, search: '', filters: {} };

/** The query-parameter names of a table; a prefix keeps two tables on one page apart. */
export function paramNames(prefix = '') {
  return { sort: `${prefix}sort`, search: `${prefix}q`, filter: `${prefix}f.` };
}

/** Reads the table state from the query: `sort=name.asc`, `q=text`, `f.status=2`. Unknown columns are dropped. */
export function decodeTableState(
  params: URLSearchParams,
  columns: readonly string[],
  prefix = '',
): TableUrlState {
  const names = paramNames(prefix);
  let sort: SortState | null = null;
  const raw = params.get(names.sort);
  if (raw) {
    const dot = raw.lastIndexOf('.');
    const id = dot > 0 ? raw.slice(0, dot) : raw;
    const dir = dot > 0 ? raw.slice(dot + 1).toLowerCase() : 'asc';
    if (columns.includes(id) && (dir === 'asc' || dir === 'desc')) sort = { id, desc: dir === 'desc' };
  }
  const filters: Record<string, string> = {};
  for (const [key, value] of params) {
    if (!key.startsWith(names.filter) || value === '') continue;
    const id = key.slice(names.filter.length);
    if (columns.includes(id)) filters[id] = value;
  }
  return { sort, search: params.get(names.search) ?? '', filters };
}

/** Writes the table state into a copy of the query, leaving other parameters alone and empties out. */
export function encodeTableState(
  params: URLSearchParams,
  state: TableUrlState,
  prefix = '',
): URLSearchParams {
  const names = paramNames(prefix);
  const next = new URLSearchParams(params);
  next.delete(names.sort);
  next.delete(names.search);
  for (const key of [...next.keys()]) if (key.startsWith(names.filter)) next.delete(key);
  if (state.sort) next.set(names.sort, `${state.sort.id}.${state.sort.desc ? 'desc' : 'asc'}`);
  if (state.search.trim() !== '') next.set(names.search, state.search);
  for (const [id, value] of Object.entries(state.filters))
    if (value !== '') next.set(`${names.filter}${id}`, value);
  return next;
}

/** The next sort when a header is clicked: none → ascending → descending → none. */
export function nextSort(current: SortState | null, id: string): SortState | null {
  if (!current || current.id !== id) return { id, desc: false };
  return current.desc ? null : { id, desc: true };
}

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/** Formula neutralisation is core's one CSV rule (the server's report exports use it too). */
export { csvSafe };

/** The header row, then one row per visible table row, every cell as text (formulas neutralised). */
export function csvRows<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string[][] {
  return [
    columns.map((c) => csvSafe(c.header)),
    ...rows.map((row) =>
      columns.map((c) => {
        const v = c.value(row);
        return v === null || v === undefined ? '' : csvSafe(String(v));
      }),
    ),
  ];
}

/** A file name safe on every system, with the .csv extension. */
export function csvFileName(name: string): string {
  const base =
    name
      .replace(/\.csv$/i, '')
      .replace(/[\\/:*?"<>|]+/g, '_')
      .replace(/\s+/g, ' ')
      .trim() || 'export';
  return `${base}.csv`;
}

/** Between the columns of a row's search text: a query never matches across two cells. */
const CELL_BREAK = '\u0000';

/** A row's searchable cells, normalised as spec §5 search compares them (case and accents ignored). */
export function searchHaystack(cells: readonly string[]): string {
  return cells.map((cell) => normalizeForSearch(cell).replaceAll(CELL_BREAK, ' ')).join(CELL_BREAK);
}

/** The typed search as it is looked for in a haystack; '' matches every row. */
export function searchNeedle(query: string): string {
  return normalizeForSearch(query.trim()).replaceAll(CELL_BREAK, ' ');
}

/** A column filter of the row model: the rows whose value, as text, equals `wanted`. */
export interface EqualsFilter<T> {
  value: (row: T) => SortValue;
  wanted: string;
}

/**
 * The rows that pass every column filter (a value equal to the chosen one, as text) and the search
 * (`matches`, null without a search), in their order. One pass, no per-row objects: a 10,000-row list
 * costs one array.
 */
export function filterRows<T>(
  rows: readonly T[],
  filters: readonly EqualsFilter<T>[],
  matches: ((row: T) => boolean) | null,
): readonly T[] {
  if (filters.length === 0 && matches === null) return rows;
  return rows.filter(
    (row) =>
      filters.every((f) => String(f.value(row) ?? '') === f.wanted) && (matches === null || matches(row)),
  );
}

/**
 * The rows in the order of one column: its key read once per row (not twice per comparison), compared
 * with `compareValues`, reversed when descending (empties then come first), equal keys in their
 * original order.
 */
export function sortRows<T>(rows: readonly T[], key: (row: T) => SortValue, desc: boolean): T[] {
  const keyed = rows.map((row, index) => ({ row, key: key(row), index }));
  keyed.sort((a, b) => {
    const order = compareValues(a.key, b.key);
    if (order === 0) return a.index - b.index;
    return desc ? -order : order;
  });
  return keyed.map((k) => k.row);
}

/** Row selection by row id (ids of rows no longer shown stay selected until cleared). */
export type Selection = Readonly<Record<string, true>>;

/** Every shown row selected (and at least one row). */
export function allSelected(selection: Selection, shownIds: readonly string[]): boolean {
  return shownIds.length > 0 && shownIds.every((id) => selection[id] === true);
}

/** Some rows selected, fewer than are shown (the select-all box's indeterminate state). */
export function someSelected(selection: Selection, shownIds: readonly string[]): boolean {
  const count = Object.keys(selection).length;
  return count > 0 && count < shownIds.length;
}

/** The select-all box checked (`on`) or cleared: every shown row selected, or unselected (others stay). */
export function selectAll(selection: Selection, shownIds: readonly string[], on: boolean): Selection {
  const next: Record<string, true> = { ...selection };
  for (const id of shownIds) {
    if (on) next[id] = true;
    else delete next[id];
  }
  return next;
}

/** One row's box checked (`on`) or cleared. */
export function selectOne(selection: Selection, id: string, on: boolean): Selection {
  const next: Record<string, true> = { ...selection };
  if (on) next[id] = true;
  else delete next[id];
  return next;
}
