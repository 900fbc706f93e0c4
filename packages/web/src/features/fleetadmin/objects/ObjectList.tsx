import { Badge, Box, Button, Checkbox, Group, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../../components/IconButton.tsx';
import { SearchFilter } from '../../../components/SearchFilter.tsx';
import { filterRows, movable, type ObjectRow, selectAllState, toggleAll, toggleOne } from './rules.ts';

const ROW_ESTIMATE = 52;

/**
 * One of the two lists of the objects tab (PRODUCT.md "Administration"): a filter, a select-all box over
 * the rows the filter shows, row boxes, and the button that moves the selection to the other list. Rows
 * saved in this fleet get Edit and Delete; long lists are virtualised.
 */
export function ObjectList({
  title,
  rows,
  filter,
  onFilter,
  selected,
  onSelected,
  moveLabel,
  onMove,
  emptyText,
  canAct,
  onEdit,
  onDelete,
  disabled,
  testId,
}: {
  title: string;
  rows: readonly ObjectRow[];
  filter: string;
  onFilter: (text: string) => void;
  selected: ReadonlySet<number>;
  onSelected: (next: Set<number>) => void;
  /** The move button's text for a count. */
  moveLabel: (count: number) => string;
  onMove: (ids: number[]) => void;
  emptyText: string;
  /** Whether a row gets Edit and Delete (saved in this fleet). */
  canAct: (row: ObjectRow) => boolean;
  onEdit: (row: ObjectRow) => void;
  onDelete: (row: ObjectRow) => void;
  disabled: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const shown = useMemo(() => filterRows(rows, filter), [rows, filter]);
  const shownIds = useMemo(() => shown.map((r) => r.id), [shown]);
  const all = selectAllState(shownIds, selected);
  const toMove = movable(shownIds, selected);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();

  return (
    <Paper withBorder p="sm" radius="sm" style={{ flex: '1 1 0', minWidth: 0 }} data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Title order={2} size="h5" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          <Badge variant="light" color="gray" style={{ flex: 'none' }} data-testid={`${testId}-count`}>
            {filter.trim() === '' ? rows.length : `${shown.length} / ${rows.length}`}
          </Badge>
        </Group>
        <SearchFilter
          value={filter}
          onChange={onFilter}
          aria-label={t('fleetAdmin.objects.filterOf', { list: title })}
          data-testid={`${testId}-filter`}
        />
        <Checkbox
          label={t('controls.selectAll')}
          checked={all === 'all'}
          indeterminate={all === 'some'}
          disabled={disabled || shown.length === 0}
          onChange={() => onSelected(toggleAll(shownIds, selected))}
          data-testid={`${testId}-all`}
        />
        {shown.length === 0 ? (
          <Text c="dimmed" size="sm" py="md" data-testid={`${testId}-empty`}>
            {rows.length === 0 ? emptyText : t('controls.noMatches')}
          </Text>
        ) : (
          <Box
            ref={scrollRef}
            role="list"
            aria-label={title}
            style={{
              height: `min(${Math.max(shown.length, 1) * ROW_ESTIMATE}px, 22rem)`,
              overflowY: 'auto',
              overflowX: 'hidden',
              borderTop: '1px solid var(--mantine-color-default-border)',
            }}
          >
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((item) => {
                const row = shown[item.index];
                if (!row) return null;
                return (
                  <Group
                    key={row.id}
                    role="listitem"
                    data-index={item.index}
                    ref={virtualizer.measureElement}
                    justify="space-between"
                    wrap="nowrap"
                    gap="xs"
                    py={6}
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      right: 0,
                      transform: `translateY(${item.start}px)`,
                      borderBottom: '1px solid var(--mantine-color-default-border)',
                    }}
                    data-testid={`${testId}-row-${row.id}`}
                  >
                    <Checkbox
                      label={row.name}
                      description={row.detail || undefined}
                      checked={selected.has(row.id)}
                      disabled={disabled}
                      onChange={(e) => onSelected(toggleOne(selected, row.id, e.currentTarget.checked))}
                      styles={{
                        root: { minWidth: 0, flex: '1 1 auto' },
                        label: { overflowWrap: 'anywhere' },
                        description: { overflowWrap: 'anywhere' },
                      }}
                    />
                    {canAct(row) && (
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <IconButton
                            size="sm"
                            disabled={disabled}
                            aria-label={t('fleetAdmin.objects.actionsFor', { name: row.name })}
                            style={{ flex: 'none' }}
                            data-testid={`${testId}-menu-${row.id}`}
                          >
                            ⋯
                          </IconButton>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => onEdit(row)} data-testid="object-edit">
                            {t('fleetAdmin.objects.edit')}
                          </Menu.Item>
                          <Menu.Item color="red" onClick={() => onDelete(row)} data-testid="object-delete">
                            {t('common.delete')}
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    )}
                  </Group>
                );
              })}
            </div>
          </Box>
        )}
        <Button
          variant="light"
          disabled={disabled || toMove.length === 0}
          onClick={() => onMove(toMove)}
          style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
          data-testid={`${testId}-move`}
        >
          {moveLabel(toMove.length)}
        </Button>
      </Stack>
    </Paper>
  );
}
