import type { ObjectType } from '@fleetkeep/core';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DatePicker } from '../../../components/DatePicker.tsx';
import { IconButton } from '../../../components/IconButton.tsx';
import { NumericInput } from '../../../components/NumericInput.tsx';
import { SearchFilter } from '../../../components/SearchFilter.tsx';
import { MultiSelect, Select } from '../../../components/Select.tsx';
import { matchesSearch } from '../../../components/search.ts';
import type { FleetObject } from './data.ts';
import type { TabProps } from './fields.ts';
import { countsUnits, type KindFilter, pickerKind, pickerKinds } from './picker.ts';
import { remainingOf } from './remaining.ts';
import { type AssignmentForm, type FleetUnits, MAX_DIGITS, newAssignment, objectKey } from './rules.ts';
import type { UnitLabels } from './useUnitLabels.ts';

/** Above this many assignments the list gets a search filter. */
const SEARCH_FROM = 6;

/**
 * Assigned units tab: the objects of the interval with their "last service" baselines, editable by
 * hand with manageInterval, and the remaining value per kind (spec §9; PRODUCT.md "Intervals").
 */
export function AssignedTab({
  form,
  errors,
  readOnly,
  disabled,
  change,
  objects,
  units,
  labels,
  now,
  dateFormat,
}: TabProps & {
  objects: readonly FleetObject[];
  units: FleetUnits;
  labels: UnitLabels;
  now: number;
  dateFormat: string;
}) {
  const { t } = useTranslation();
  const [chosenKind, setKind] = useState<KindFilter>('all');
  const unitsOnly = countsUnits(form);
  const kind = pickerKind(chosenKind, unitsOnly);
  const [picked, setPicked] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const byKey = useMemo(() => new Map(objects.map((o) => [objectKey(o), o])), [objects]);
  const assigned = useMemo(() => new Set(form.assignments.map(objectKey)), [form.assignments]);
  const nameOf = (a: { id: number; t: ObjectType }) =>
    byKey.get(objectKey(a))?.name ?? t('intervalEditor.unknownObject', { id: a.id });
  const kindName = (k: ObjectType) => t(`intervalEditor.objectKind.${k}`);

  const options = objects
    .filter((o) => !assigned.has(objectKey(o)) && (kind === 'all' || o.t === kind))
    .map((o) => ({
      value: objectKey(o),
      label: kind === 'all' || unitsOnly ? `${o.name} (${kindName(o.t)})` : o.name,
    }));

  const add = () => {
    const refs = picked.map((key) => byKey.get(key)).filter((o): o is FleetObject => o !== undefined);
    change(['u.'], (f) => ({
      ...f,
      assignments: [
        ...f.assignments,
        ...refs
          .filter((o) => !f.assignments.some((a) => objectKey(a) === objectKey(o)))
          .map((o) => newAssignment(o, o, units, now)),
      ],
    }));
    setPicked([]);
  };

  const update = (
    index: number,
    field: keyof Pick<AssignmentForm, 'lcnm' | 'lceh' | 'ltm' | 'cnt'>,
    value: string,
  ) =>
    change([`u.${index}.${field}`], (f) => ({
      ...f,
      assignments: f.assignments.map((a, i) => (i === index ? { ...a, [field]: value } : a)),
    }));

  const remove = (index: number) =>
    change(['u.'], (f) => ({ ...f, assignments: f.assignments.filter((_, i) => i !== index) }));

  const shown = form.assignments
    .map((a, index) => ({ a, index }))
    .filter(({ a }) => matchesSearch(nameOf(a), search));

  return (
    <Stack gap="md">
      {!readOnly && (
        <Paper withBorder p="sm" data-testid="assign-picker">
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select
              label={t('intervalEditor.kindFilter')}
              searchable={false}
              allowDeselect={false}
              options={pickerKinds(unitsOnly).map((k) => ({
                value: k,
                label: k === 'all' ? t('intervalEditor.kindAll') : t(`intervalEditor.objectKinds.${k}`),
              }))}
              value={kind}
              disabled={disabled}
              onChange={(v) => setKind((v as KindFilter | null) ?? 'all')}
              style={{ flex: '0 1 10rem' }}
              data-testid="assign-kind"
            />
            <MultiSelect
              label={t('intervalEditor.pick')}
              options={options}
              value={picked}
              clearable
              hidePickedOptions
              disabled={disabled}
              onChange={setPicked}
              style={{ flex: '1 1 14rem', minWidth: 0 }}
              data-testid="assign-objects"
            />
            <Button onClick={add} disabled={disabled || picked.length === 0} data-testid="assign-add">
              {t('intervalEditor.add')}
            </Button>
          </Group>
        </Paper>
      )}
      {form.assignments.length >= SEARCH_FROM && (
        <SearchFilter
          value={search}
          onChange={setSearch}
          aria-label={t('controls.search')}
          placeholder={t('controls.search')}
        />
      )}
      {form.assignments.length === 0 && (
        <Text c="dimmed" data-testid="assigned-empty">
          {t('intervalEditor.noObjects')}
        </Text>
      )}
      {shown.map(({ a, index }) => {
        const object = byKey.get(objectKey(a));
        const counters = { mileage: object?.mileage ?? null, engineHours: object?.engineHours ?? null };
        const remaining = remainingOf(form, a, counters, units, now);
        const name = nameOf(a);
        const hasCounters = a.t === 'u';
        const badge = (label: string, value: number | null, unit: string, testId: string) =>
          value === null ? null : (
            <Badge
              key={testId}
              variant="light"
              color={value < 0 ? 'red' : 'blue'}
              tt="none"
              size="lg"
              fw={500}
              data-testid={testId}
            >
              {`${label}: ${labels.remaining(value, unit)}`}
            </Badge>
          );
        return (
          <Paper key={objectKey(a)} withBorder p="sm" data-testid={`assignment-${a.t}-${a.id}`}>
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
                  <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {name}
                  </Text>
                  <Badge variant="outline" color="gray" tt="none">
                    {kindName(a.t)}
                  </Badge>
                </Group>
                {!readOnly && (
                  <IconButton
                    aria-label={t('intervalEditor.removeObject', { name })}
                    color="red"
                    disabled={disabled}
                    onClick={() => remove(index)}
                    data-testid="assignment-remove"
                  >
                    <span aria-hidden="true">✕</span>
                  </IconButton>
                )}
              </Group>
              {errors[`u.${index}.id`] && (
                <Text c="red" size="sm" role="alert">
                  {errors[`u.${index}.id`]}
                </Text>
              )}
              <SimpleGrid cols={{ base: hasCounters ? 2 : 1, sm: hasCounters ? 4 : 2 }} spacing="sm">
                {hasCounters && (
                  <NumericInput
                    label={t('intervalEditor.lastMileage')}
                    precision={3}
                    maxIntegerLength={MAX_DIGITS.baseline}
                    value={a.lcnm}
                    readOnly={readOnly}
                    disabled={disabled}
                    rightSection={labels.distance}
                    rightSectionWidth={40}
                    error={errors[`u.${index}.lcnm`]}
                    onChange={(v) => update(index, 'lcnm', v)}
                    data-testid="assignment-lcnm"
                  />
                )}
                {hasCounters && (
                  <NumericInput
                    label={t('intervalEditor.lastEngineHours')}
                    precision={3}
                    maxIntegerLength={MAX_DIGITS.baseline}
                    value={a.lceh}
                    readOnly={readOnly}
                    disabled={disabled}
                    rightSection={labels.engineHours}
                    rightSectionWidth={40}
                    error={errors[`u.${index}.lceh`]}
                    onChange={(v) => update(index, 'lceh', v)}
                    data-testid="assignment-lceh"
                  />
                )}
                <DatePicker
                  label={t('intervalEditor.lastDate')}
                  value={a.ltm === '' ? null : a.ltm}
                  dateFormat={dateFormat}
                  disabled={readOnly || disabled}
                  error={errors[`u.${index}.ltm`]}
                  onChange={(v) => update(index, 'ltm', v ?? '')}
                  data-testid="assignment-ltm"
                />
                <NumericInput
                  label={t('intervalEditor.executions')}
                  integerOnly
                  maxIntegerLength={MAX_DIGITS.executions}
                  value={a.cnt}
                  readOnly={readOnly}
                  disabled={disabled}
                  error={errors[`u.${index}.cnt`]}
                  onChange={(v) => update(index, 'cnt', v)}
                  data-testid="assignment-cnt"
                />
              </SimpleGrid>
              <Group gap="xs" wrap="wrap">
                {badge(
                  t('intervalEditor.remainingMileage'),
                  remaining.mileage,
                  labels.distance,
                  'remaining-mileage',
                )}
                {badge(
                  t('intervalEditor.remainingEngineHours'),
                  remaining.engineHours,
                  labels.engineHours,
                  'remaining-engine-hours',
                )}
                {badge(t('intervalEditor.remainingTime'), remaining.days, labels.days, 'remaining-time')}
                {a.isNew && (
                  <Text size="sm" c="dimmed" data-testid="assignment-new-hint">
                    {t('intervalEditor.newHint')}
                  </Text>
                )}
              </Group>
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
