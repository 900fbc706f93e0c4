import {
  fromThousandths,
  LineItemKind,
  type LineItemLineInput,
  multiplyThousandths,
  toThousandths,
  type WorkOrderWire,
} from '@fleetkeep/core';
import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PHONE_MAX_WIDTH } from '../../components/DataTable/DataTable.tsx';
import { NumericInput } from '../../components/NumericInput.tsx';
import { Select } from '../../components/Select.tsx';
import { useLibrary } from '../../lib/fleetData.ts';
import { useStockChoices } from '../../lib/stock.ts';
import type { FleetFormat } from './format.ts';

/**
 * Parts and labour of a work order from the fleet's line-item library: pick an item, its quantity, add;
 * each line's cost and the total. Every change is saved at once (`onSave` with all lines). On a phone
 * the lines are stacked cards (name, then quantity × unit cost = cost) instead of a table that would
 * scroll sideways.
 */
export function LinesSection({
  wo,
  fid,
  editable,
  busy,
  fmt,
  onSave,
}: {
  wo: WorkOrderWire;
  fid: number;
  editable: boolean;
  busy: boolean;
  fmt: FleetFormat;
  onSave: (lines: LineItemLineInput[]) => void;
}) {
  const { t } = useTranslation();
  const narrow = useMediaQuery(`(max-width: ${PHONE_MAX_WIDTH}px)`, false, {
    getInitialValueInEffect: false,
  });
  const library = useLibrary(fid);
  const [itemId, setItemId] = useState<string | null>(null);
  const [qty, setQty] = useState('1');
  const stock = useStockChoices(fid);
  const [stockValue, setStockValue] = useState<string | null>(null);
  const items = (library.data ?? []).filter((i) => i.t === LineItemKind.part || i.t === LineItemKind.task);
  const options = items.map((i) => ({
    value: String(i.id),
    label: `${i.n} (${i.t === LineItemKind.task ? t('lineitems.labour') : t('lineitems.part')})`,
  }));
  // Parts taken from stock keep their part and location (docs/product.md "Parts and stock").
  const lines: LineItemLineInput[] = wo.li.map((l) => ({
    n: l.n,
    t: l.t as 1 | 2,
    q: l.q,
    c: l.c,
    ...(l.pid !== undefined && { pid: l.pid, slid: l.slid ?? null }),
  }));
  const add = () => {
    const q = Number(qty);
    if (!(q > 0)) return;
    const choice = stock.find((c) => c.value === stockValue);
    if (choice) {
      onSave([...lines, { n: choice.name, t: 2, q, c: choice.cost, pid: choice.pid, slid: choice.slid }]);
      setStockValue(null);
      setQty('1');
      return;
    }
    const item = items.find((i) => String(i.id) === itemId);
    if (!item) return;
    onSave([...lines, { n: item.n, t: item.t as 1 | 2, q, c: item.c }]);
    setItemId(null);
    setQty('1');
  };
  const lineCost = (l: { q: number; c: number }) =>
    fromThousandths(multiplyThousandths(toThousandths(l.q) ?? 0, toThousandths(l.c) ?? 0));
  const removeButton = (index: number, name: string) => (
    <Button
      size="compact-xs"
      variant="subtle"
      color="red"
      disabled={busy}
      aria-label={`${t('common.delete')}: ${name}`}
      onClick={() => onSave(lines.filter((_, i) => i !== index))}
      style={{ flexShrink: 0 }}
    >
      {t('common.delete')}
    </Button>
  );

  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('workOrders.lines')}
      </Title>
      {wo.li.length > 0 && narrow && (
        <Stack gap="xs" data-testid="wo-lines">
          {wo.li.map((l, index) => (
            <Paper key={`${l.n}-${index}`} withBorder p="xs" data-testid="wo-line">
              <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {l.n}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {fmt.number(l.q)} × {fmt.money(l.c)} = {fmt.money(lineCost(l))}
                  </Text>
                </Stack>
                {editable && removeButton(index, l.n)}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {wo.li.length > 0 && !narrow && (
        <Table.ScrollContainer minWidth={360}>
          <Table data-testid="wo-lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('lineitems.name')}</Table.Th>
                <Table.Th ta="right">{t('workOrders.qty')}</Table.Th>
                <Table.Th ta="right">{t('workOrders.unitCost')}</Table.Th>
                <Table.Th ta="right">{t('lineitems.cost')}</Table.Th>
                {editable && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {wo.li.map((l, index) => (
                <Table.Tr key={`${l.n}-${index}`}>
                  <Table.Td>{l.n}</Table.Td>
                  <Table.Td ta="right">{fmt.number(l.q)}</Table.Td>
                  <Table.Td ta="right">{fmt.money(l.c)}</Table.Td>
                  <Table.Td ta="right">{fmt.money(lineCost(l))}</Table.Td>
                  {editable && <Table.Td ta="right">{removeButton(index, l.n)}</Table.Td>}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Text fw={600} data-testid="wo-total">
        {t('workOrders.total')}: {fmt.money(wo.total_cost)}
      </Text>
      {editable && (
        <Group align="flex-end" gap="xs" wrap="wrap">
          <Select
            label={t('lineitems.name')}
            options={options}
            value={itemId}
            onChange={setItemId}
            w={260}
            data-testid="wo-line-item"
          />
          {stock.length > 0 && (
            <Select
              label={t('parts.fromStock')}
              options={stock.map((c) => ({ value: c.value, label: c.label }))}
              value={stockValue}
              onChange={setStockValue}
              w={260}
              data-testid="wo-line-stock"
            />
          )}
          <NumericInput
            label={t('workOrders.qty')}
            value={qty}
            precision={3}
            maxIntegerLength={9}
            onChange={setQty}
            w={110}
            data-testid="wo-line-qty"
          />
          <Button
            variant="light"
            onClick={add}
            disabled={busy || (itemId === null && stockValue === null)}
            data-testid="wo-line-add"
          >
            {t('workOrders.addLine')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
