import {
  Box,
  Button,
  Checkbox,
  Collapse,
  Group,
  Stack,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  type Cell,
  type ColumnDef,
  type FilterFn,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  type Header,
  type Row,
  type RowSelectionState,
  type SortingFn,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUrlParams } from '../../lib/urlParams.ts';
import { SearchFilter } from '../SearchFilter.tsx';
import { Select } from '../Select.tsx';
import type { SelectOption } from '../search.ts';
import {
  compareValues,
  csvFileName,
  csvRows,
  decodeTableState,
  encodeTableState,
  nextSort,
  type SortState,
  type SortValue,
  searchHaystack,
  searchNeedle,
  type TableUrlState,
} from './rules.ts';

export interface DataColumn<T> {
  id: string;
  header: string;
  /** The value the column sorts, searches, filters and exports by. */
  value: (row: T) => string | number | null;
  /** What the cell shows; the value when absent. */
  cell?: (row: T) => ReactNode;
  /** Text of the value for search and CSV (e.g. a formatted date); the value when absent. */
  text?: (row: T) => string;
  sortable?: boolean;
  /** Part of the global search (default true). */
  searchable?: boolean;
  /** Part of the CSV export (default true). */
  exported?: boolean;
  /** A filter select above the table, matching the value exactly. */
  filter?: { label: string; options: readonly SelectOption[] };
  /** Header-only text for screen readers (e.g. an actions column). */
  hiddenHeader?: boolean;
  /**
   * Its place in the phone layout (narrower than `PHONE_MAX_WIDTH`, when any column has one): each row
   * is a card, 'title' on the first line, 'detail' below it, 'end' at the right (a row menu); columns
   * without a place are left out there. Without any, the table keeps its columns and scrolls sideways.
   */
  phone?: PhonePlace;
}

export type PhonePlace = 'title' | 'detail' | 'end';

/** The widest viewport that gets the phone layout (issue 15: 375 px phones and small tablets). */
export const PHONE_MAX_WIDTH = 600;

export interface DataTableProps<T> {
  data: readonly T[];
  columns: readonly DataColumn<T>[];
  getRowId: (row: T) => string;
  /** Prefix of the query parameters, so that two tables on one page keep their own state. */
  urlPrefix?: string;
  /** Shows an export button writing the rows that pass search and filters to this file. */
  csvName?: string;
  /** Adds a checkbox column; called with the ids of the selected rows. */
  onSelectionChange?: (ids: string[]) => void;
  /** Name of a row for its checkbox ('Select: {{name}}'). */
  rowLabel?: (row: T) => string;
  emptyText?: string;
  /** Height of the scrolling body; rows beyond it are virtualised. */
  maxHeight?: number | string;
  /** Below this width the table scrolls sideways inside its box, never the page. */
  minWidth?: number;
  /** Extra controls beside the search (bulk actions, a create button). */
  toolbar?: ReactNode;
  /** More filters beside the column filters; on a phone they fold behind a 'Filters (n)' button too. */
  filters?: ReactNode;
  /** How many of `filters` are set, for the count on that button. */
  activeFilters?: number;
  /** A line under the table about the rows that pass search and filters (e.g. their totals). */
  summary?: (rows: readonly T[]) => ReactNode;
  'data-testid'?: string;
}

const ROW_ESTIMATE = 41;

/**
 * A header or cell of a column definition, called as a plain function rather than rendered as a component
 * (TanStack's `flexRender`): the definitions are rebuilt when the columns change (e.g. a live update of
 * the names they look up), and a new component type would re-mount every cell, closing an open row menu
 * and dropping focus. Called, the cells' own elements stay the same types and React keeps them.
 */
function renderPart<C>(part: unknown, context: C): ReactNode {
  return typeof part === 'function' ? (part as (context: C) => ReactNode)(context) : (part as ReactNode);
}

const sortNatural: SortingFn<unknown> = (a, b, id) =>
  compareValues(a.getValue<SortValue>(id), b.getValue<SortValue>(id));
const equalsFilter: FilterFn<unknown> = (row, id, wanted: string) =>
  String(row.getValue(id) ?? '') === wanted;

/**
 * The one data table (STYLE.md): TanStack Table + Virtual, natural sort, global search and filters kept
 * in the URL, selectable rows, row count, CSV export of the rows that pass the search.
 */
export function DataTable<T>({
  data,
  columns,
  getRowId,
  urlPrefix = '',
  csvName,
  onSelectionChange,
  rowLabel,
  emptyText,
  maxHeight = 'min(70vh, 720px)',
  minWidth = 640,
  toolbar,
  filters,
  activeFilters = 0,
  summary,
  'data-testid': testId,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const narrow = useMediaQuery(`(max-width: ${PHONE_MAX_WIDTH}px)`, false, {
    getInitialValueInEffect: false,
  });
  const phone = narrow && columns.some((c) => c.phone);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [params, patchParams] = useUrlParams();
  const ids = useMemo(() => columns.map((c) => c.id), [columns]);
  const state = decodeTableState(params, ids, urlPrefix);
  /** Patches the URL state; a function patch reads the latest state (two quick clicks both count). */
  const update = (patch: Partial<TableUrlState> | ((now: TableUrlState) => Partial<TableUrlState>)) =>
    patchParams((base) => {
      const now = decodeTableState(base, ids, urlPrefix);
      return encodeTableState(
        base,
        { ...now, ...(typeof patch === 'function' ? patch(now) : patch) },
        urlPrefix,
      );
    });
  const [selection, setSelection] = useState<RowSelectionState>({});
  const selectable = onSelectionChange !== undefined;

  const textOf = useMemo(() => {
    const map = new Map(columns.map((c) => [c.id, c.text ?? ((row: T) => String(c.value(row) ?? ''))]));
    return (row: T, id: string) => map.get(id)?.(row) ?? '';
  }, [columns]);

  /**
   * Each row's searchable text, normalised once per row and column set: the search of a 10,000-row table
   * then costs one `includes` per row instead of formatting and normalising every cell on each key press.
   */
  const firstSearchable = columns.find((c) => c.searchable ?? true)?.id;
  const globalFilter = useMemo(() => {
    const searchable = columns.filter((c) => c.searchable ?? true).map((c) => c.id);
    const cache = new WeakMap<object, string>();
    const haystackOf = (row: T): string => {
      const key = row as object;
      let text = cache.get(key);
      if (text === undefined) {
        text = searchHaystack(searchable.map((id) => textOf(row, id)));
        cache.set(key, text);
      }
      return text;
    };
    // The answer is the whole row's, so one column asks it (getColumnCanGlobalFilter below).
    const fn: FilterFn<T> = (row, _id, needle: string) =>
      needle === '' || haystackOf(row.original).includes(needle);
    fn.resolveFilterValue = (query: string) => searchNeedle(String(query ?? ''));
    return fn;
  }, [columns, textOf]);

  const defs = useMemo<ColumnDef<T>[]>(() => {
    const out: ColumnDef<T>[] = columns.map((c) => ({
      id: c.id,
      accessorFn: (row: T) => c.value(row),
      header: c.header,
      enableSorting: c.sortable ?? true,
      sortingFn: sortNatural as SortingFn<T>,
      filterFn: equalsFilter as FilterFn<T>,
      enableGlobalFilter: c.searchable ?? true,
      cell: (info) => (c.cell ? c.cell(info.row.original) : textOf(info.row.original, c.id)),
    }));
    if (selectable)
      out.unshift({
        id: '__select',
        enableSorting: false,
        enableGlobalFilter: false,
        header: ({ table }) => (
          <Checkbox
            aria-label={t('controls.selectAll')}
            checked={table.getIsAllRowsSelected()}
            indeterminate={table.getIsSomeRowsSelected()}
            onChange={table.getToggleAllRowsSelectedHandler()}
          />
        ),
        cell: ({ row }) => (
          <Checkbox
            aria-label={t('controls.selectRow', { name: rowLabel ? rowLabel(row.original) : row.id })}
            checked={row.getIsSelected()}
            onChange={row.getToggleSelectedHandler()}
          />
        ),
      });
    return out;
  }, [columns, selectable, rowLabel, t, textOf]);

  // Stable state arrays: new ones on every render would recompute the row models (and, through TanStack's
  // automatic resets, render again) each time.
  const sortKey = JSON.stringify(state.sort ? [state.sort] : []);
  const filterKey = JSON.stringify(Object.entries(state.filters).map(([id, value]) => ({ id, value })));
  const sorting = useMemo(() => JSON.parse(sortKey) as SortState[], [sortKey]);
  const columnFilters = useMemo(() => JSON.parse(filterKey) as { id: string; value: string }[], [filterKey]);
  const table = useReactTable<T>({
    data: data as T[],
    columns: defs,
    getRowId: (row) => getRowId(row),
    state: {
      sorting,
      globalFilter: state.search,
      columnFilters,
      rowSelection: selection,
    },
    enableRowSelection: selectable,
    autoResetPageIndex: false,
    autoResetExpanded: false,
    onRowSelectionChange: (updater) => {
      const next = typeof updater === 'function' ? updater(selection) : updater;
      setSelection(next);
      onSelectionChange?.(Object.keys(next).filter((id) => next[id]));
    },
    globalFilterFn: globalFilter,
    // TanStack asks the global filter once per taking-part column; the filter answers for the whole row, so
    // the first searchable column alone takes part, whatever its first row holds (TanStack's default test).
    getColumnCanGlobalFilter: (column) => column.id === firstSearchable,
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const rows = table.getRowModel().rows;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const span = defs.length;

  const exportCsv = async () => {
    if (!csvName) return;
    const { default: Papa } = await import('papaparse');
    const exported = columns.filter((c) => c.exported ?? true);
    const text = Papa.unparse(
      csvRows(
        exported.map((c) => ({ header: c.header, value: (row: T) => textOf(row, c.id) })),
        rows.map((r: Row<T>) => r.original),
      ),
    );
    const url = URL.createObjectURL(new Blob([`\ufeff${text}`], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = csvFileName(csvName);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const filtered = state.search.trim() !== '' || columnFilters.length > 0;
  const specOf = (id: string) => columns.find((c) => c.id === id);

  /** A header's label: a sort button when the column sorts, screen-reader text when hidden. */
  const headerLabel = (header: Header<T, unknown>) => {
    const sorted = header.column.getIsSorted();
    const label = renderPart(header.column.columnDef.header, header.getContext());
    if (specOf(header.column.id)?.hiddenHeader) return <VisuallyHidden>{label}</VisuallyHidden>;
    if (!header.column.getCanSort()) return label;
    return (
      <UnstyledButton
        fw={600}
        fz="sm"
        style={{ whiteSpace: 'nowrap' }}
        onClick={() => update((now) => ({ sort: nextSort(now.sort, header.column.id) }))}
      >
        {label}
        <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
      </UnstyledButton>
    );
  };
  const ariaSort = (header: Header<T, unknown>) => {
    const sorted = header.column.getIsSorted();
    return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;
  };
  const cellOf = (cell: Cell<T, unknown>) => renderPart(cell.column.columnDef.cell, cell.getContext());
  const phoneCells = (cells: Cell<T, unknown>[], place: PhonePlace) =>
    cells.filter((cell) => specOf(cell.column.id)?.phone === place);

  const filterCount = columnFilters.length + activeFilters;
  const columnFilterControls = columns
    .filter((c) => c.filter)
    .map((c) => (
      <Select
        key={c.id}
        label={c.filter?.label}
        options={c.filter?.options ?? []}
        value={state.filters[c.id] ?? null}
        clearable
        onChange={(v) => update((now) => ({ filters: { ...now.filters, [c.id]: v ?? '' } }))}
        style={{ flex: '0 1 12rem' }}
      />
    ));
  return (
    <Box>
      <Group mb="sm" gap="sm" align="flex-end" wrap="wrap">
        <SearchFilter
          value={state.search}
          onChange={(search) => update({ search })}
          style={{ flex: '1 1 12rem', maxWidth: '24rem' }}
        />
        {phone && (columnFilterControls.length > 0 || filters) ? (
          <Button
            variant={filterCount > 0 ? 'light' : 'default'}
            onClick={() => setFiltersOpen((o) => !o)}
            aria-expanded={filtersOpen}
            data-testid={testId ? `${testId}-filters` : undefined}
          >
            {t('controls.filtersCount', { count: filterCount })}
          </Button>
        ) : (
          <>
            {columnFilterControls}
            {filters}
          </>
        )}
        {toolbar}
        {csvName && (
          <Button variant="default" onClick={() => void exportCsv()} disabled={rows.length === 0}>
            {t('controls.exportCsv')}
          </Button>
        )}
      </Group>
      {phone && (
        <Collapse expanded={filtersOpen}>
          <Group mb="sm" gap="sm" align="flex-end" wrap="wrap">
            {columnFilterControls}
            {filters}
          </Group>
        </Collapse>
      )}
      {data.length === 0 || rows.length === 0 ? (
        <Text c="dimmed" py="md" data-testid={testId ? `${testId}-empty` : undefined}>
          {data.length === 0 ? (emptyText ?? t('controls.empty')) : t('controls.noMatches')}
        </Text>
      ) : (
        <Box
          ref={scrollRef}
          style={{
            maxHeight,
            overflow: 'auto',
            maxWidth: '100%',
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
          data-testid={testId ? `${testId}-scroll` : undefined}
          tabIndex={0}
          aria-label={t('controls.tableScroll')}
          role="region"
        >
          <Table
            striped
            highlightOnHover
            miw={phone ? undefined : minWidth}
            data-testid={testId}
            data-layout={phone ? 'phone' : 'table'}
            aria-rowcount={rows.length + 1}
          >
            <Table.Thead
              style={{ position: 'sticky', top: 0, zIndex: 1, background: 'var(--mantine-color-body)' }}
            >
              {table.getHeaderGroups().map((group) =>
                phone ? (
                  // One header cell: the select-all box and the sort buttons of the columns shown.
                  <Table.Tr key={group.id}>
                    <Table.Th colSpan={span}>
                      <Group gap="md" wrap="wrap">
                        {group.headers
                          .filter((h) => h.column.id === '__select' || specOf(h.column.id)?.phone)
                          .filter((h) => h.column.id === '__select' || h.column.getCanSort())
                          .map((header) => (
                            <span key={header.id}>
                              {header.column.id === '__select'
                                ? renderPart(header.column.columnDef.header, header.getContext())
                                : headerLabel(header)}
                            </span>
                          ))}
                      </Group>
                    </Table.Th>
                  </Table.Tr>
                ) : (
                  <Table.Tr key={group.id}>
                    {group.headers.map((header) => (
                      <Table.Th
                        key={header.id}
                        w={header.column.id === '__select' ? 40 : undefined}
                        aria-sort={ariaSort(header)}
                      >
                        {headerLabel(header)}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                ),
              )}
            </Table.Thead>
            <Table.Tbody>
              {padTop > 0 && (
                <tr>
                  <td colSpan={span} style={{ height: padTop, padding: 0, border: 0 }} />
                </tr>
              )}
              {items.map((item) => {
                const row = rows[item.index];
                if (!row) return null;
                const cells = row.getVisibleCells();
                return (
                  <Table.Tr
                    key={row.id}
                    data-index={item.index}
                    ref={virtualizer.measureElement}
                    aria-rowindex={item.index + 2}
                    aria-selected={selectable ? row.getIsSelected() : undefined}
                  >
                    {phone ? (
                      <Table.Td colSpan={span}>
                        <Group gap="xs" wrap="nowrap" align="flex-start">
                          {cells
                            .filter((cell) => cell.column.id === '__select')
                            .map((cell) => (
                              <Box key={cell.id} pt={2}>
                                {cellOf(cell)}
                              </Box>
                            ))}
                          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                            {phoneCells(cells, 'title').map((cell) => (
                              <Box key={cell.id} style={{ overflowWrap: 'anywhere' }}>
                                {cellOf(cell)}
                              </Box>
                            ))}
                            <Group gap="xs" wrap="wrap" align="center">
                              {phoneCells(cells, 'detail').map((cell) => (
                                <Box
                                  key={cell.id}
                                  fz="sm"
                                  data-column={cell.column.id}
                                  style={{ minWidth: 0 }}
                                >
                                  {cellOf(cell)}
                                </Box>
                              ))}
                            </Group>
                          </Stack>
                          {phoneCells(cells, 'end').map((cell) => (
                            <Box key={cell.id}>{cellOf(cell)}</Box>
                          ))}
                        </Group>
                      </Table.Td>
                    ) : (
                      cells.map((cell) => <Table.Td key={cell.id}>{cellOf(cell)}</Table.Td>)
                    )}
                  </Table.Tr>
                );
              })}
              {padBottom > 0 && (
                <tr>
                  <td colSpan={span} style={{ height: padBottom, padding: 0, border: 0 }} />
                </tr>
              )}
            </Table.Tbody>
          </Table>
        </Box>
      )}
      {data.length > 0 && (
        <Text size="sm" c="dimmed" mt="xs" data-testid={testId ? `${testId}-count` : undefined}>
          {filtered
            ? t('controls.rowsShown', { count: rows.length, total: data.length })
            : t('controls.rows', { count: rows.length })}
        </Text>
      )}
      {summary && data.length > 0 && summary(rows.map((r) => r.original))}
    </Box>
  );
}
