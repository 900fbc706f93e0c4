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
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, type ReactNode, type Ref, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUrlParams } from '../../lib/urlParams.ts';
import { SearchFilter } from '../SearchFilter.tsx';
import { Select } from '../Select.tsx';
import type { SelectOption } from '../search.ts';
import {
  allSelected,
  csvFileName,
  csvRows,
  decodeTableState,
  encodeTableState,
  filterRows,
  nextSort,
  type Selection,
  type SortState,
  searchHaystack,
  searchNeedle,
  selectAll,
  selectOne,
  someSelected,
  sortRows,
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
  /**
   * The CSV cell when it differs from `text`: a plain number (dot decimal, no grouping) for a column
   * whose text is formatted in the user's locale, so that the file stays machine-readable.
   */
  csv?: (row: T) => string | number | null;
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
  /** What the card shows in the phone layout when it differs from `cell` (null leaves it out). */
  phoneCell?: (row: T) => ReactNode;
}

export type PhonePlace = 'title' | 'detail' | 'end';

/** The widest viewport that gets the phone layout (375 px phones and small tablets). */
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
 * The one data table (STYLE.md): TanStack Virtual, natural sort, global search and filters kept in the
 * URL, selectable rows, row count, CSV export of the rows that pass the search.
 *
 * The row model is plain arrays (Chromium target): the data filtered in one pass and sorted by
 * keys read once per row, recomputed only when the data, the columns, the filters, the search or the sort
 * change. No object per row is made: a 10,000-row list costs two arrays, and only the rows on screen
 * (plus overscan) are rendered.
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
  const [selection, setSelection] = useState<Selection>({});
  const selectable = onSelectionChange !== undefined;

  const textOf = useMemo(() => {
    const map = new Map(columns.map((c) => [c.id, c.text ?? ((row: T) => String(c.value(row) ?? ''))]));
    return (row: T, id: string) => map.get(id)?.(row) ?? '';
  }, [columns]);

  /**
   * Each row's searchable text, normalised once per row and column set: the search of a 10,000-row table
   * then costs one `includes` per row instead of formatting and normalising every cell on each key press.
   */
  const haystackOf = useMemo(() => {
    const searchable = columns.filter((c) => c.searchable ?? true).map((c) => c.id);
    const cache = new WeakMap<object, string>();
    return (row: T): string => {
      const key = row as object;
      let text = cache.get(key);
      if (text === undefined) {
        text = searchHaystack(searchable.map((id) => textOf(row, id)));
        cache.set(key, text);
      }
      return text;
    };
  }, [columns, textOf]);
  const canSearch = columns.some((c) => c.searchable ?? true);

  // Stable keys of the URL state: the row model is recomputed when they change, not on every render.
  const sortKey = JSON.stringify(state.sort);
  const filterKey = JSON.stringify(state.filters);
  const columnFilters = useMemo(() => JSON.parse(filterKey) as Record<string, string>, [filterKey]);
  const search = state.search;

  const filteredRows = useMemo(() => {
    const equals = Object.entries(columnFilters).flatMap(([id, wanted]) => {
      const column = columns.find((c) => c.id === id);
      return column ? [{ value: column.value, wanted }] : [];
    });
    const needle = search !== '' && canSearch ? searchNeedle(search) : null;
    const matches = needle === null || needle === '' ? null : (row: T) => haystackOf(row).includes(needle);
    return filterRows(data, equals, matches);
  }, [data, columns, columnFilters, search, canSearch, haystackOf]);

  const rows = useMemo(() => {
    const sort = JSON.parse(sortKey) as SortState | null;
    const column = sort ? columns.find((c) => c.id === sort.id && (c.sortable ?? true)) : undefined;
    return sort && column ? sortRows(filteredRows, column.value, sort.desc) : filteredRows;
  }, [filteredRows, sortKey, columns]);

  // The ids of the rows shown, for the select-all box (read through a ref: callers pass inline functions).
  const rowIdOf = useRef(getRowId);
  rowIdOf.current = getRowId;
  const shownIds = useMemo(
    () => (selectable ? rows.map((row) => rowIdOf.current(row)) : []),
    [rows, selectable],
  );
  const changeSelection = (next: Selection) => {
    setSelection(next);
    onSelectionChange?.(Object.keys(next));
  };

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
  const span = columns.length + (selectable ? 1 : 0);

  const exportCsv = async () => {
    if (!csvName) return;
    const { default: Papa } = await import('papaparse');
    const exported = columns.filter((c) => c.exported ?? true);
    const text = Papa.unparse(
      csvRows(
        exported.map((c) => ({
          header: c.header,
          value: (row: T) => {
            if (!c.csv) return textOf(row, c.id);
            const v = c.csv(row);
            return v === null ? '' : String(v);
          },
        })),
        rows,
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

  const filterCount = Object.keys(columnFilters).length;
  const filtered = state.search.trim() !== '' || filterCount > 0;

  /** The sort of a column: 'asc', 'desc' or none. */
  const sortedOf = (id: string) => (state.sort?.id === id ? (state.sort.desc ? 'desc' : 'asc') : false);
  /** A header's label: a sort button when the column sorts, screen-reader text when hidden. */
  const headerLabel = (c: DataColumn<T>) => {
    const sorted = sortedOf(c.id);
    if (c.hiddenHeader) return <VisuallyHidden>{c.header}</VisuallyHidden>;
    if (!(c.sortable ?? true)) return c.header;
    return (
      <UnstyledButton
        fw={600}
        fz="sm"
        style={{ whiteSpace: 'nowrap' }}
        onClick={() => update((now) => ({ sort: nextSort(now.sort, c.id) }))}
      >
        {c.header}
        <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
      </UnstyledButton>
    );
  };
  const ariaSort = (c: DataColumn<T>) => {
    const sorted = sortedOf(c.id);
    return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;
  };
  const selectAllBox = (
    <Checkbox
      aria-label={t('controls.selectAll')}
      checked={allSelected(selection, shownIds)}
      indeterminate={someSelected(selection, shownIds)}
      onChange={(e) => changeSelection(selectAll(selection, shownIds, e.currentTarget.checked))}
    />
  );
  // A row box reads the latest selection through a ref, so the rows' props stay the same between renders.
  const latest = useRef({ selection, changeSelection });
  latest.current = { selection, changeSelection };
  const onSelect = useMemo(
    () => (id: string, on: boolean) =>
      latest.current.changeSelection(selectOne(latest.current.selection, id, on)),
    [],
  );

  const allFilterCount = filterCount + activeFilters;
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
            variant={allFilterCount > 0 ? 'light' : 'default'}
            onClick={() => setFiltersOpen((o) => !o)}
            aria-expanded={filtersOpen}
            data-testid={testId ? `${testId}-filters` : undefined}
          >
            {t('controls.filtersCount', { count: allFilterCount })}
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
              {phone ? (
                // One header cell: the select-all box and the sort buttons of the columns shown.
                <Table.Tr>
                  <Table.Th colSpan={span}>
                    <Group gap="md" wrap="wrap">
                      {selectable && <span>{selectAllBox}</span>}
                      {columns
                        .filter((c) => c.phone && (c.sortable ?? true))
                        .map((c) => (
                          <span key={c.id}>{headerLabel(c)}</span>
                        ))}
                    </Group>
                  </Table.Th>
                </Table.Tr>
              ) : (
                <Table.Tr>
                  {selectable && <Table.Th w={40}>{selectAllBox}</Table.Th>}
                  {columns.map((c) => (
                    <Table.Th key={c.id} aria-sort={ariaSort(c)}>
                      {headerLabel(c)}
                    </Table.Th>
                  ))}
                </Table.Tr>
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
                if (row === undefined) return null;
                const id = getRowId(row);
                return (
                  <DataRow<T>
                    key={id}
                    row={row}
                    id={id}
                    index={item.index}
                    columns={columns}
                    textOf={textOf}
                    phone={phone}
                    span={span}
                    selected={selectable ? selection[id] === true : undefined}
                    selectLabel={
                      selectable ? t('controls.selectRow', { name: rowLabel ? rowLabel(row) : id }) : ''
                    }
                    onSelect={onSelect}
                    measure={virtualizer.measureElement}
                  />
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
      {summary && data.length > 0 && summary(rows)}
    </Box>
  );
}

interface DataRowProps<T> {
  row: T;
  id: string;
  index: number;
  columns: readonly DataColumn<T>[];
  textOf: (row: T, id: string) => string;
  phone: boolean;
  span: number;
  /** Whether the row's box is checked; undefined when the table has no selection. */
  selected: boolean | undefined;
  selectLabel: string;
  onSelect: (id: string, on: boolean) => void;
  measure: Ref<HTMLTableRowElement>;
}

/**
 * One rendered row. Memoised: when the table renders again (the virtualiser measured the rows, scrolled,
 * or another row's box changed), a row whose props are the same is not rendered again.
 */
function DataRowOf<T>({
  row,
  id,
  index,
  columns,
  textOf,
  phone,
  span,
  selected,
  selectLabel,
  onSelect,
  measure,
}: DataRowProps<T>) {
  const cellOf = (c: DataColumn<T>) => (c.cell ? c.cell(row) : textOf(row, c.id));
  const cardOf = (c: DataColumn<T>) => (c.phoneCell ? c.phoneCell(row) : cellOf(c));
  const phoneColumns = (place: PhonePlace) => columns.filter((c) => c.phone === place);
  const box =
    selected === undefined ? null : (
      <Checkbox
        aria-label={selectLabel}
        checked={selected}
        onChange={(e) => onSelect(id, e.currentTarget.checked)}
      />
    );
  return (
    <Table.Tr data-index={index} ref={measure} aria-rowindex={index + 2} aria-selected={selected}>
      {phone ? (
        <Table.Td colSpan={span}>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            {box && <Box pt={2}>{box}</Box>}
            <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
              {phoneColumns('title').map((c) => (
                <Box key={c.id} style={{ overflowWrap: 'anywhere' }}>
                  {cardOf(c)}
                </Box>
              ))}
              <Group gap="xs" wrap="wrap" align="center">
                {phoneColumns('detail').map((c) => {
                  const content = cardOf(c);
                  return content === null || content === '' ? null : (
                    <Box key={c.id} fz="sm" data-column={c.id} style={{ minWidth: 0 }}>
                      {content}
                    </Box>
                  );
                })}
              </Group>
            </Stack>
            {phoneColumns('end').map((c) => (
              <Box key={c.id}>{cellOf(c)}</Box>
            ))}
          </Group>
        </Table.Td>
      ) : (
        <>
          {box && <Table.Td>{box}</Table.Td>}
          {columns.map((c) => (
            <Table.Td key={c.id}>{cellOf(c)}</Table.Td>
          ))}
        </>
      )}
    </Table.Tr>
  );
}

const DataRow = memo(DataRowOf) as typeof DataRowOf;
