import { formatMoney, LINE_ITEMS_MAX, type LineItemWire } from '@fleetkeep/core';
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CreatableSelect } from '../../../components/CreatableSelect.tsx';
import { IconButton } from '../../../components/IconButton.tsx';
import { NumericInput } from '../../../components/NumericInput.tsx';
import { Select } from '../../../components/Select.tsx';
import { fillDefaults } from '../../../lib/defaults.ts';
import type { TabProps } from './fields.ts';
import { libraryMatch, lineLibrary, linesTotal, lineTotal } from './lines.ts';
import { LINE_KIND, type LineForm, type LineKind, MAX_DIGITS, numberText } from './rules.ts';

const NEW = 'new:';
const LIB = 'lib:';

/**
 * Line items tab: name from the library (or typed, which the server adds to the library), type,
 * quantity and cost with exact totals; copied into the services the interval creates.
 */
export function LinesTab({
  form,
  errors,
  readOnly,
  disabled,
  change,
  library,
  currency,
}: TabProps & { library: readonly LineItemWire[]; currency: string }) {
  const { t, i18n } = useTranslation();
  const items = useMemo(() => lineLibrary(library), [library]);
  const libraryOptions = useMemo(() => items.map((i) => ({ value: `${LIB}${i.id}`, label: i.n })), [items]);
  const money = (v: number) => formatMoney(v, currency, { locale: i18n.language });

  const update = (index: number, fields: string[], patch: (l: LineForm) => Partial<LineForm>) =>
    change(
      fields.map((f) => `li.${index}.${f}`),
      (f) => ({ ...f, lines: f.lines.map((l, i) => (i === index ? { ...l, ...patch(l) } : l)) }),
    );
  const add = () =>
    change(['lines'], (f) => ({ ...f, lines: [...f.lines, { n: '', t: LINE_KIND.part, q: '1', c: '' }] }));
  const remove = (index: number) =>
    change(['li.', 'lines'], (f) => ({ ...f, lines: f.lines.filter((_, i) => i !== index) }));

  const kindOptions = [
    { value: String(LINE_KIND.part), label: t('lineitems.part') },
    { value: String(LINE_KIND.labour), label: t('lineitems.labour') },
  ];

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('intervalEditor.linesHint')}
      </Text>
      {form.lines.length === 0 && (
        <Text c="dimmed" data-testid="lines-empty">
          {t('intervalEditor.noLines')}
        </Text>
      )}
      {form.lines.map((line, index) => {
        const match = libraryMatch(items, line);
        const value = match ? `${LIB}${match.id}` : line.n.trim() ? `${NEW}${line.n}` : null;
        const options =
          match || !line.n.trim()
            ? libraryOptions
            : [{ value: `${NEW}${line.n}`, label: line.n }, ...libraryOptions];
        const total = lineTotal(line);
        return (
          <Paper key={index} withBorder p="sm" data-testid="line">
            <Stack gap="xs">
              <Group align="flex-end" wrap="nowrap" gap="xs">
                {readOnly ? (
                  <Text fw={500} style={{ flex: 1, overflowWrap: 'anywhere' }} data-testid="line-name">
                    {line.n}
                  </Text>
                ) : (
                  <CreatableSelect
                    // Remount when the value changes from outside (a removed line above), so its text follows.
                    key={`${index}:${value ?? ''}`}
                    label={t('intervals.name')}
                    withAsterisk
                    options={options}
                    value={value}
                    disabled={disabled}
                    error={errors[`li.${index}.n`]}
                    placeholder={t('intervalEditor.linePlaceholder')}
                    onChange={(v) => {
                      const item = items.find((i) => `${LIB}${i.id}` === v);
                      // The library cost is the default of the line's cost: only into an empty cost or
                      // the untouched cost of the item before; a cost the user typed stays (lib/defaults.ts).
                      if (item)
                        update(index, ['n', 'c'], (l) => {
                          const before = libraryMatch(items, l);
                          return fillDefaults(
                            {
                              ...l,
                              n: item.n,
                              t: item.t === LINE_KIND.part ? LINE_KIND.part : LINE_KIND.labour,
                            },
                            { c: numberText(item.c) },
                            { c: before ? numberText(before.c) : '' },
                          );
                        });
                    }}
                    onCreate={(text) => update(index, ['n'], () => ({ n: text }))}
                    style={{ flex: 1, minWidth: 0 }}
                    data-testid="line-name"
                  />
                )}
                {!readOnly && (
                  <IconButton
                    aria-label={t('intervalEditor.removeLine')}
                    color="red"
                    disabled={disabled}
                    onClick={() => remove(index)}
                    mb={errors[`li.${index}.n`] ? 24 : 4}
                    data-testid="line-remove"
                  >
                    <span aria-hidden="true">✕</span>
                  </IconButton>
                )}
              </Group>
              <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
                <Select
                  label={t('lineitems.type')}
                  searchable={false}
                  allowDeselect={false}
                  options={kindOptions}
                  value={String(line.t)}
                  readOnly={readOnly}
                  disabled={disabled}
                  onChange={(v) => v && update(index, [], () => ({ t: Number(v) as LineKind }))}
                  data-testid="line-type"
                />
                <NumericInput
                  label={t(
                    line.t === LINE_KIND.labour ? 'lineitems.quantityHours' : 'intervalEditor.quantity',
                  )}
                  precision={3}
                  maxIntegerLength={MAX_DIGITS.money}
                  value={line.q}
                  readOnly={readOnly}
                  disabled={disabled}
                  error={errors[`li.${index}.q`]}
                  onChange={(q) => update(index, ['q'], () => ({ q }))}
                  data-testid="line-quantity"
                />
                <NumericInput
                  label={t('lineitems.costPerUnit')}
                  precision={3}
                  maxIntegerLength={MAX_DIGITS.money}
                  value={line.c}
                  readOnly={readOnly}
                  disabled={disabled}
                  rightSection={currency || undefined}
                  rightSectionWidth={currency ? 48 : undefined}
                  error={errors[`li.${index}.c`]}
                  onChange={(c) => update(index, ['c'], () => ({ c }))}
                  data-testid="line-cost"
                />
                <Stack gap={2} justify="flex-end">
                  <Text size="sm" fw={500}>
                    {t('intervalEditor.total')}
                  </Text>
                  <Text py={6} data-testid="line-total">
                    {total === null ? '–' : money(total)}
                  </Text>
                </Stack>
              </SimpleGrid>
            </Stack>
          </Paper>
        );
      })}
      {errors.lines && (
        <Text c="red" size="sm" role="alert">
          {errors.lines}
        </Text>
      )}
      <Group justify="space-between" wrap="wrap">
        {!readOnly ? (
          <Button
            variant="light"
            onClick={add}
            disabled={disabled || form.lines.length >= LINE_ITEMS_MAX}
            data-testid="line-add"
          >
            {t('intervalEditor.addLine')}
          </Button>
        ) : (
          <span />
        )}
        <Text fw={600} data-testid="lines-total">
          {t('intervalEditor.grandTotal', { value: money(linesTotal(form.lines)) })}
        </Text>
      </Group>
    </Stack>
  );
}
