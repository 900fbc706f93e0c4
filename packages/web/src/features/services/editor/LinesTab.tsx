import { formatMoney, formatMoneyAmount, formatNumber, type LineItemWire } from '@fleetkeep/core';
import { Button, Group, Input, Paper, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CreatableSelect } from '../../../components/CreatableSelect.tsx';
import { IconButton } from '../../../components/IconButton.tsx';
import { NumericInput } from '../../../components/NumericInput.tsx';
import { Select } from '../../../components/Select.tsx';
import { fillDefaults } from '../../../lib/defaults.ts';
import { useSession } from '../../../lib/session.ts';
import { stockChoiceValue, useStockChoices } from '../../../lib/stock.ts';
import {
  decimalText,
  emptyLine,
  LINE_KIND,
  type LineDraft,
  type LineKind,
  linesTotal,
  lineTotal,
  thousandthsToNumber,
} from './rules.ts';

export interface LinesTabProps {
  lines: LineDraft[];
  onChange: (lines: LineDraft[]) => void;
  library: readonly LineItemWire[];
  errors: Partial<Record<string, string>>;
  editable: boolean;
  busy: boolean;
  currency: string;
}

/** Tab 2: line items (spec §3 "Line item"): name from the library or typed, part/labour, quantity × cost. */
export function LinesTab({ lines, onChange, library, errors, editable, busy, currency }: LinesTabProps) {
  const { t, i18n } = useTranslation();
  // Amounts with the currency's minor units in the user's language (docs/product.md).
  const money = (th: number | undefined) =>
    th === undefined ? '-' : formatMoneyAmount(thousandthsToNumber(th), currency, i18n.language);
  const parts = useMemo(
    () => library.filter((i) => i.t === LINE_KIND.labour || i.t === LINE_KIND.part),
    [library],
  );
  // One option per name (case-insensitive); the row's type then picks the matching library item.
  const libraryOptions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const i of parts) if (!seen.has(i.n.toLowerCase())) seen.set(i.n.toLowerCase(), i.n);
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [parts]);
  const total = linesTotal(lines);
  // Parts from stock (docs/product.md "Parts and stock"): saving the line takes it from the location.
  const session = useSession();
  const stock = useStockChoices(session.status === 'authenticated' ? session.auth.fid : null);
  const stockOptions = stock.map((c) => ({ value: c.value, label: c.label }));
  const takeFrom = (index: number, value: string | null) => {
    const row = lines[index];
    if (!row) return;
    const choice = stock.find((c) => c.value === value);
    if (!choice) {
      patch(index, { pid: null, slid: null });
      return;
    }
    patch(index, {
      pid: choice.pid,
      slid: choice.slid,
      n: row.n.trim() ? row.n : choice.name,
      c: row.c.trim() ? row.c : decimalText(choice.cost),
    });
  };

  const patch = (index: number, next: Partial<LineDraft>) =>
    onChange(lines.map((l, i) => (i === index ? { ...l, ...next } : l)));
  // The library item of a name (case-insensitive), of the row's type when the library has both.
  const itemOf = (name: string, t: LineKind) => {
    const same = parts.filter((i) => i.n.toLowerCase() === name.trim().toLowerCase());
    return same.find((i) => i.t === t) ?? same[0];
  };
  // A name chosen (picked or typed) brings its library cost as the default of the row's cost: only into
  // an empty cost or the untouched cost of the name before; a cost the user typed stays (lib/defaults.ts).
  const pick = (index: number, value: string | null) => {
    const row = lines[index];
    if (!row || value === null) return;
    const item = itemOf(value, row.t);
    if (!item) return;
    const before = itemOf(row.n, row.t);
    const next = fillDefaults(
      { ...row, n: item.n, t: item.t === LINE_KIND.labour ? LINE_KIND.labour : LINE_KIND.part },
      { c: decimalText(item.c) },
      { c: before ? decimalText(before.c) : '' },
    );
    patch(index, next);
  };

  if (!editable) {
    return (
      <Stack gap="sm">
        {lines.length === 0 ? (
          <Text c="dimmed">{t('serviceEditor.noLines')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table striped data-testid="service-lines">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('serviceEditor.lineName')}</Table.Th>
                  <Table.Th>{t('serviceEditor.lineType')}</Table.Th>
                  <Table.Th ta="right">{t('serviceEditor.quantityOrHours')}</Table.Th>
                  <Table.Th ta="right">{t('lineitems.costPerUnit')}</Table.Th>
                  <Table.Th ta="right">{t('serviceEditor.lineTotal')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lines.map((l) => (
                  <Table.Tr key={l.key}>
                    <Table.Td>{l.n}</Table.Td>
                    <Table.Td>
                      {l.t === LINE_KIND.labour ? t('serviceEditor.labour') : t('serviceEditor.part')}
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(Number(l.q), { locale: i18n.language })}</Table.Td>
                    <Table.Td ta="right">
                      {formatNumber(Number(l.c || 0), { locale: i18n.language })}
                    </Table.Td>
                    <Table.Td ta="right">{money(lineTotal(l))}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <TotalLine total={total} currency={currency} />
      </Stack>
    );
  }

  return (
    <Stack gap="sm" data-testid="service-lines">
      {lines.length === 0 && <Text c="dimmed">{t('serviceEditor.noLines')}</Text>}
      {lines.map((l, i) => {
        const options =
          libraryOptions.some((o) => o.value === l.n.toLowerCase()) || !l.n.trim()
            ? libraryOptions
            : [...libraryOptions, { value: l.n.toLowerCase(), label: l.n }];
        return (
          <Paper key={l.key} withBorder p="sm" data-testid="service-line">
            <Group align="flex-start" gap="sm" wrap="wrap">
              <CreatableSelect
                label={t('serviceEditor.lineName')}
                options={options}
                value={l.n.trim() ? l.n.toLowerCase() : null}
                onChange={(v) => pick(i, v)}
                onCreate={(text) => patch(i, { n: text })}
                placeholder={t('serviceEditor.linePlaceholder')}
                disabled={busy}
                withAsterisk
                error={errors[`lines.${i}.n`]}
                style={{ flex: '1 1 14rem', minWidth: 0 }}
              />
              {/* Input.Wrapper: the same label as the inputs beside it (weight, height, alignment). */}
              <Input.Wrapper
                label={t('serviceEditor.lineType')}
                labelElement="div"
                id={`line-type-${l.key}`}
                style={{ flex: '0 1 12rem' }}
              >
                <SegmentedControl
                  aria-labelledby={`line-type-${l.key}-label`}
                  fullWidth
                  value={String(l.t)}
                  disabled={busy}
                  onChange={(v) => patch(i, { t: Number(v) as LineKind })}
                  data={[
                    { value: String(LINE_KIND.part), label: t('serviceEditor.part') },
                    { value: String(LINE_KIND.labour), label: t('serviceEditor.labour') },
                  ]}
                />
              </Input.Wrapper>
              <NumericInput
                label={t(l.t === LINE_KIND.labour ? 'lineitems.quantityHours' : 'serviceEditor.quantity')}
                value={l.q}
                precision={3}
                maxIntegerLength={9}
                onChange={(q) => patch(i, { q })}
                disabled={busy}
                withAsterisk
                error={errors[`lines.${i}.q`]}
                style={{ flex: '1 1 8.5rem' }}
              />
              <NumericInput
                label={t('lineitems.costPerUnit')}
                value={l.c}
                precision={3}
                maxIntegerLength={9}
                onChange={(c) => patch(i, { c })}
                disabled={busy}
                error={errors[`lines.${i}.c`]}
                style={{ flex: '1 1 7rem' }}
              />
              <Input.Wrapper
                label={t('serviceEditor.lineTotal')}
                labelElement="div"
                style={{ flex: '1 1 6rem' }}
              >
                <Text py={6} data-testid="service-line-total">
                  {money(lineTotal(l))}
                </Text>
              </Input.Wrapper>
              {l.t === LINE_KIND.part && stockOptions.length > 0 && (
                <Select
                  label={t('parts.fromStock')}
                  options={stockOptions}
                  value={l.pid != null && l.slid != null ? stockChoiceValue(l.pid, l.slid) : null}
                  onChange={(v) => takeFrom(i, v)}
                  disabled={busy}
                  clearable
                  data-testid="service-line-stock"
                  style={{ flex: '1 1 14rem', minWidth: 0 }}
                />
              )}
              <IconButton
                aria-label={t('serviceEditor.removeLine', { name: l.n || String(i + 1) })}
                onClick={() => onChange(lines.filter((_, j) => j !== i))}
                disabled={busy}
                color="red"
                mt={28}
              >
                <span aria-hidden="true">✕</span>
              </IconButton>
            </Group>
          </Paper>
        );
      })}
      <Group justify="space-between" wrap="wrap">
        <Button
          variant="light"
          onClick={() => onChange([...lines, emptyLine()])}
          disabled={busy}
          data-testid="service-add-line"
        >
          {t('serviceEditor.addLine')}
        </Button>
        <TotalLine total={total} currency={currency} />
      </Group>
    </Stack>
  );
}

function TotalLine({ total, currency }: { total: number; currency: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Text fw={600} data-testid="service-lines-total">
      {t('serviceEditor.linesTotal', {
        total: formatMoney(thousandthsToNumber(total), currency, { locale: i18n.language }),
      })}
    </Text>
  );
}
