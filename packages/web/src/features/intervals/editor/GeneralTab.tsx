import { type IntervalTimeUnit, Limits } from '@fleetkeep/core';
import { Alert, Paper, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../../components/NumericInput.tsx';
import { RequiredInput } from '../../../components/RequiredInput.tsx';
import { Select } from '../../../components/Select.tsx';
import { Switch } from '../../../components/Toggles.tsx';
import type { TabProps } from './fields.ts';
import { type KindForm, MAX_DIGITS, TIME_UNITS } from './rules.ts';
import type { UnitLabels } from './useUnitLabels.ts';

type CounterKind = 'mileage' | 'engineHours';

/** General tab: name, description and the three kinds of frequency (PRODUCT.md "Intervals"). */
export function GeneralTab({
  form,
  errors,
  readOnly,
  disabled,
  change,
  attempted,
  labels,
}: TabProps & { attempted: boolean; labels: UnitLabels }) {
  const { t } = useTranslation();
  const [nameBlurred, setNameBlurred] = useState(false);
  const nameError = errors.name;
  // The required alarm is RequiredInput's own; other problems (duplicate, too long) of a name typed are
  // shown as invalid.
  const nameInvalid = nameError !== undefined && form.name.trim() !== '';

  const setKind = (kind: CounterKind | 'time', patch: Partial<KindForm>, fields: string[]) =>
    change(fields, (f) => ({ ...f, [kind]: { ...f[kind], ...patch } }));

  const counter = (kind: CounterKind, title: string, unit: string) => {
    const k = form[kind];
    return (
      <Paper withBorder p="sm" data-testid={`kind-${kind}`}>
        <Stack gap="xs">
          <Switch
            label={title}
            checked={k.on}
            disabled={readOnly || disabled}
            onChange={(e) => setKind(kind, { on: e.currentTarget.checked }, ['kinds'])}
          />
          {k.on && (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <NumericInput
                label={t('intervals.frequency')}
                withAsterisk={!readOnly}
                integerOnly
                maxIntegerLength={MAX_DIGITS.counter}
                value={k.every}
                readOnly={readOnly}
                disabled={disabled}
                rightSection={unit}
                rightSectionWidth={48}
                error={errors[`${kind}.every`]}
                onChange={(every) => setKind(kind, { every }, [`${kind}.every`])}
                data-testid={`${kind}-every`}
              />
              <NumericInput
                label={t('intervals.notice')}
                integerOnly
                maxIntegerLength={MAX_DIGITS.counter}
                value={k.notice}
                readOnly={readOnly}
                disabled={disabled}
                rightSection={unit}
                rightSectionWidth={48}
                error={errors[`${kind}.notice`]}
                onChange={(notice) => setKind(kind, { notice }, [`${kind}.notice`])}
                data-testid={`${kind}-notice`}
              />
            </SimpleGrid>
          )}
        </Stack>
      </Paper>
    );
  };

  const time = form.time;
  return (
    <Stack gap="md">
      <RequiredInput
        label={t('intervals.name')}
        value={form.name}
        maxLength={Limits.stringMax}
        readOnly={readOnly}
        disabled={disabled}
        withAsterisk={!readOnly}
        touched={!readOnly && (attempted || nameBlurred)}
        onBlur={() => setNameBlurred(true)}
        showInvalid={nameInvalid}
        alarmText={nameInvalid ? nameError : undefined}
        onChange={(name) => change(['name'], (f) => ({ ...f, name }))}
        data-testid="interval-name"
      />
      <Textarea
        label={t('intervalEditor.description')}
        value={form.description}
        maxLength={Limits.descriptionMax}
        autosize
        minRows={2}
        maxRows={6}
        readOnly={readOnly}
        disabled={disabled}
        error={errors.description}
        onChange={(e) => {
          const description = e.currentTarget.value;
          change(['description'], (f) => ({ ...f, description }));
        }}
        data-testid="interval-description"
      />
      {errors.kinds && (
        <Alert color="red" role="alert" py="xs" data-testid="kinds-error">
          {errors.kinds}
        </Alert>
      )}
      {counter('mileage', t('intervals.kindMileage'), labels.distance)}
      {counter('engineHours', t('intervals.kindEngineHours'), labels.engineHours)}
      <Paper withBorder p="sm" data-testid="kind-time">
        <Stack gap="xs">
          <Switch
            label={t('intervals.kindTime')}
            checked={time.on}
            disabled={readOnly || disabled}
            onChange={(e) => setKind('time', { on: e.currentTarget.checked }, ['kinds'])}
          />
          {time.on && (
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              <NumericInput
                label={t('intervals.frequency')}
                withAsterisk={!readOnly}
                integerOnly
                maxIntegerLength={MAX_DIGITS.timeFrequency}
                value={time.every}
                readOnly={readOnly}
                disabled={disabled}
                error={errors['time.every']}
                onChange={(every) => setKind('time', { every }, ['time.every'])}
                data-testid="time-every"
              />
              <Select
                label={t('intervalEditor.timeUnit')}
                searchable={false}
                allowDeselect={false}
                options={TIME_UNITS.map((u) => ({ value: u, label: t(`intervalEditor.unit.${u}`) }))}
                value={time.unit}
                readOnly={readOnly}
                disabled={disabled}
                onChange={(v) =>
                  v &&
                  change(['time.every', 'time.notice'], (f) => ({
                    ...f,
                    time: { ...f.time, unit: v as IntervalTimeUnit },
                  }))
                }
                data-testid="time-unit"
              />
              <NumericInput
                label={t('intervals.notice')}
                integerOnly
                maxIntegerLength={MAX_DIGITS.noticeDays}
                value={time.notice}
                readOnly={readOnly}
                disabled={disabled}
                rightSection={labels.days}
                rightSectionWidth={48}
                error={errors['time.notice']}
                onChange={(notice) => setKind('time', { notice }, ['time.notice'])}
                data-testid="time-notice"
              />
            </SimpleGrid>
          )}
        </Stack>
      </Paper>
      {!readOnly && (
        <Text size="sm" c="dimmed">
          {t('intervalEditor.kindsHint')}
        </Text>
      )}
    </Stack>
  );
}
