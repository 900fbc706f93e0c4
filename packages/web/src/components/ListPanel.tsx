import { Alert, Button, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { type DataColumn, DataTable, type DataTableProps } from './DataTable/DataTable.tsx';

/** A message above the table: a failure (red alert) or a success (green status), closed by the user. */
export interface PanelNotice {
  ok: boolean;
  text: string;
}

/** The edit and delete buttons of a row (and any before them, e.g. "Send test"). */
export interface RowActions<T> {
  /** The row's name in the buttons' accessible labels. */
  name: (row: T) => string;
  /** The test id of a row's button: `${testIdPrefix}-edit-${id}`, `${testIdPrefix}-delete-${id}`. */
  testIdPrefix: string;
  onEdit: (row: T) => void;
  onDelete: (row: T) => void;
  /** A delete under way: its row's button spins, and every Delete is disabled meanwhile. */
  deleting?: { pending: boolean; row: (row: T) => boolean };
  /** Buttons shown before Edit. */
  before?: (row: T) => ReactNode;
}

export interface ListPanelProps<T> extends Omit<DataTableProps<T>, 'data' | 'columns' | 'toolbar'> {
  columns: readonly DataColumn<T>[];
  /** The list as read: pending, failed (`loadError` shown) or its rows. */
  list: { isPending: boolean; isError: boolean; data?: readonly T[] };
  /** What shows while the list is read (the app's loading indicator). */
  loading: ReactNode;
  loadError: ReactNode;
  loadErrorColor?: string;
  /** Title and introduction above the table. */
  header?: ReactNode;
  notice?: PanelNotice | null;
  noticeTestId?: string;
  onNoticeClose?: () => void;
  /** What shows above the table after the notice (e.g. a test's result). */
  aboveTable?: ReactNode;
  /** "New …" in the table's toolbar; absent for readers. */
  create?: { label: string; testId: string; onClick: () => void } | null;
  /** The row buttons; absent for readers. */
  actions?: RowActions<T> | null;
  /** The delete question of spec §8 (opened while a row is asked about). */
  confirm: {
    opened: boolean;
    title: string;
    text: string;
    busy: boolean;
    onCancel: () => void;
    onConfirm: () => void;
  };
  /** The panel's test id. */
  testId: string;
  /** The editing dialog, when open. */
  children?: ReactNode;
}

/**
 * The list-and-confirm panel of the settings lists (notification set-ups, report mails, custom fields):
 * a title and introduction, a notice, the table with "New …" and per-row Edit and Delete buttons, the
 * delete question of spec §8, and the editing dialog.
 */
export function ListPanel<T>({
  columns,
  list,
  loading,
  loadError,
  loadErrorColor = 'red',
  header,
  notice,
  noticeTestId,
  onNoticeClose,
  aboveTable,
  create,
  actions,
  confirm,
  testId,
  children,
  ...table
}: ListPanelProps<T>) {
  const { t } = useTranslation();
  const withActions: readonly DataColumn<T>[] = actions
    ? [...columns, actionsColumn(actions, table.getRowId, t)]
    : columns;
  return (
    <Stack gap="xs" data-testid={testId}>
      {header}
      {notice && (
        <Alert
          color={notice.ok ? 'green' : 'red'}
          role={notice.ok ? 'status' : 'alert'}
          withCloseButton
          onClose={onNoticeClose}
          data-testid={noticeTestId}
        >
          {notice.text}
        </Alert>
      )}
      {aboveTable}
      {list.isPending ? (
        loading
      ) : list.isError ? (
        <Alert color={loadErrorColor} role="alert">
          {loadError}
        </Alert>
      ) : (
        <DataTable
          {...table}
          data={list.data ?? []}
          columns={withActions}
          toolbar={
            create ? (
              <Button onClick={create.onClick} data-testid={create.testId}>
                {create.label}
              </Button>
            ) : undefined
          }
        />
      )}
      {children}
      <ConfirmDialog {...confirm} />
    </Stack>
  );
}

function actionsColumn<T>(
  actions: RowActions<T>,
  getRowId: (row: T) => string,
  t: (key: string) => string,
): DataColumn<T> {
  const { name, testIdPrefix, onEdit, onDelete, deleting, before } = actions;
  return {
    id: 'actions',
    header: t('services.actions'),
    hiddenHeader: true,
    value: () => null,
    sortable: false,
    searchable: false,
    exported: false,
    cell: (row) => (
      <Group gap={4} wrap="nowrap" justify="flex-end">
        {before?.(row)}
        <Button
          size="xs"
          variant="subtle"
          aria-label={`${t('lineitems.edit')}: ${name(row)}`}
          onClick={() => onEdit(row)}
          data-testid={`${testIdPrefix}-edit-${getRowId(row)}`}
        >
          {t('lineitems.edit')}
        </Button>
        <Button
          size="xs"
          variant="subtle"
          color="red"
          aria-label={`${t('common.delete')}: ${name(row)}`}
          loading={deleting?.row(row)}
          disabled={deleting?.pending}
          onClick={() => onDelete(row)}
          data-testid={`${testIdPrefix}-delete-${getRowId(row)}`}
        >
          {t('common.delete')}
        </Button>
      </Group>
    ),
  };
}
