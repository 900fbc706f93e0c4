import {
  COUNTER_MAX,
  formatMoney,
  Limits,
  type ObjectType,
  SERVICE_NOTIFY_DAYS_MAX,
  type ServiceStatus,
  type ServiceWire,
  unitLabel,
} from '@fleetkeep/core';
import { Anchor, Button, Group, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DatePicker } from '../../../components/DatePicker.tsx';
import { NumericInput } from '../../../components/NumericInput.tsx';
import { integerDigits } from '../../../components/numeric.ts';
import { RequiredInput } from '../../../components/RequiredInput.tsx';
import { MultiSelect, Select } from '../../../components/Select.tsx';
import { STATUS_LABEL } from '../../../components/ServiceStatus.tsx';
import type { EditorObject } from './data.ts';
import {
  allowedStatuses,
  countersText,
  type EditMode,
  linesTotal,
  objectValue,
  parseObjectValue,
  type ServiceForm,
  thousandthsToNumber,
} from './rules.ts';

const TYPE_LABEL: Record<ObjectType, string> = {
  u: 'serviceEditor.typeUnit',
  d: 'serviceEditor.typeDriver',
  t: 'serviceEditor.typeTrailer',
};
const OBJECT_PATH: Record<ObjectType, string> = { u: 'unit', d: 'driver', t: 'trailer' };

export interface MainTabProps {
  form: ServiceForm;
  initial: ServiceForm;
  onChange: (patch: Partial<ServiceForm>) => void;
  onStatus: (status: ServiceStatus) => void;
  errors: Partial<Record<string, string>>;
  touched: boolean;
  mode: EditMode;
  isNew: boolean;
  busy: boolean;
  service: ServiceWire | null;
  objects: readonly EditorObject[];
  intervalName: string | null;
  miles: boolean;
  dateFormat: string;
  currency: string;
}

/** Tab 1: status, dates per status, object, name, description, counters and cost (spec §3, §4, §5). */
export function MainTab(props: MainTabProps) {
  const { form, initial, onChange, errors, mode, isNew, busy, service, objects, miles } = props;
  const { t, i18n } = useTranslation();
  const full = mode === 'full';
  const archive = mode === 'archive';
  // Archived services: only the corrections the server takes (PRODUCT.md "Services").
  const correctable = full || archive;
  const distanceUnit = unitLabel(i18n.language, miles ? 'mile' : 'kilometer', 2);

  const byValue = useMemo(() => new Map(objects.map((o) => [objectValue(o), o])), [objects]);
  const objectOptions = useMemo(() => {
    const chosen = new Set(form.objects);
    // The type filters the choices; chosen objects of another type stay listed (and removable).
    return objects
      .filter((o) => o.t === form.objectType || chosen.has(objectValue(o)))
      .map((o) => ({
        value: objectValue(o),
        label: o.t === form.objectType ? o.name : `${o.name} (${t(TYPE_LABEL[o.t])})`,
      }));
  }, [objects, form.objectType, form.objects, t]);

  const chosen = form.objects.map(parseObjectValue).filter((o) => o !== null);
  const onlyUnits = chosen.length > 0 && chosen.every((o) => o.t === 'u');
  const single = chosen.length === 1 ? byValue.get(form.objects[0] ?? '') : undefined;
  const counters =
    single?.t === 'u'
      ? countersText(
          single.cnm != null || single.cneh != null
            ? single
            : { cnm: service?.current_mileage, cneh: service?.current_engine_hours },
          miles,
        )
      : null;

  const statusOptions = allowedStatuses(isNew ? null : initial.status).map((s) => ({
    value: s,
    label: t(STATUS_LABEL[s]),
  }));
  const dateProps = (field: 'plannedDate' | 'startDate' | 'endDate', label: string, editable: boolean) => ({
    label,
    value: form[field],
    onChange: (v: string | null) => onChange({ [field]: v }),
    dateFormat: props.dateFormat,
    disabled: busy || !editable,
    error: errors[field],
    withAsterisk: editable,
    'data-testid': `service-${field}`,
  });
  const lineTotal = thousandthsToNumber(linesTotal(form.lines));
  const single1 = service ? byValue.get(objectValue({ t: service.t, id: service.uid })) : undefined;

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
        <Select
          label={t('serviceEditor.status')}
          options={statusOptions}
          value={form.status}
          searchable={false}
          allowDeselect={false}
          disabled={busy || !full || statusOptions.length < 2}
          onChange={(v) => v && props.onStatus(v as ServiceStatus)}
          data-testid="service-status"
        />
        {isNew ? (
          <Select
            label={t('serviceEditor.objectType')}
            options={(['u', 'd', 't'] as const).map((v) => ({ value: v, label: t(TYPE_LABEL[v]) }))}
            value={form.objectType}
            searchable={false}
            allowDeselect={false}
            disabled={busy}
            onChange={(v) => v && onChange({ objectType: v as ObjectType })}
            data-testid="service-object-type"
          />
        ) : (
          <TextInput
            label={t('serviceEditor.object')}
            readOnly
            variant="filled"
            value={service ? (single1?.name ?? `#${service.uid}`) : ''}
            description={service ? t(TYPE_LABEL[service.t]) : undefined}
            rightSectionWidth={80}
            rightSection={
              service && (
                <Anchor component={Link} to={`/${OBJECT_PATH[service.t]}/${service.uid}`} size="sm">
                  {t('serviceEditor.open')}
                </Anchor>
              )
            }
          />
        )}
      </SimpleGrid>
      {isNew && (
        <MultiSelect
          label={t('serviceEditor.objects')}
          description={
            form.objects.length > 1 ? t('serviceEditor.batchHint', { n: form.objects.length }) : undefined
          }
          options={objectOptions}
          value={form.objects}
          onChange={(v) => onChange({ objects: v })}
          disabled={busy}
          withAsterisk
          error={errors.objects}
          clearable
          hidePickedOptions
          data-testid="service-objects"
        />
      )}
      {service?.ivid != null && (
        <Text size="sm">
          {t('serviceEditor.interval')}:{' '}
          <Anchor component={Link} to={`/interval/${service.ivid}`} data-testid="service-interval">
            {props.intervalName ?? `#${service.ivid}`}
          </Anchor>
        </Text>
      )}
      <RequiredInput
        label={t('serviceEditor.name')}
        value={form.name}
        maxLength={Limits.stringMax}
        onChange={(name) => onChange({ name })}
        touched={props.touched || undefined}
        disabled={busy}
        readOnly={!correctable}
        withAsterisk={correctable}
        variant={correctable ? 'default' : 'filled'}
        showInvalid={Boolean(errors.name) && form.name.trim() !== ''}
        alarmText={errors.name}
        data-testid="service-name"
      />
      <Textarea
        label={t('serviceEditor.description')}
        value={form.description}
        maxLength={Limits.descriptionMax}
        autosize
        minRows={2}
        maxRows={8}
        onChange={(e) => onChange({ description: e.currentTarget.value })}
        disabled={busy}
        readOnly={!correctable}
        variant={correctable ? 'default' : 'filled'}
        error={errors.description}
        description={
          correctable
            ? t('serviceEditor.chars', { length: form.description.length, max: Limits.descriptionMax })
            : undefined
        }
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
        {form.status === 'due' && (
          <>
            <DatePicker {...dateProps('plannedDate', t('serviceEditor.plannedDate'), full)} />
            <NumericInput
              label={t('serviceEditor.notifyDays')}
              value={form.notifyDays}
              integerOnly
              maxIntegerLength={integerDigits(SERVICE_NOTIFY_DAYS_MAX)}
              onChange={(notifyDays) => onChange({ notifyDays })}
              disabled={busy || !full}
              error={errors.notifyDays}
              data-testid="service-notify"
            />
          </>
        )}
        {(form.status === 'inProgress' || form.status === 'closed') && (
          <DatePicker {...dateProps('startDate', t('serviceEditor.startDate'), full)} />
        )}
        {form.status === 'closed' && (
          <DatePicker {...dateProps('endDate', t('serviceEditor.endDate'), full || archive)} />
        )}
        {form.status === 'rejected' && (
          <DatePicker {...dateProps('endDate', t('serviceEditor.rejectedOn'), archive)} />
        )}
      </SimpleGrid>
      {(isNew ? onlyUnits : service?.t === 'u') && (
        <Stack gap={4}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            <NumericInput
              label={t('serviceEditor.mileage', { unit: distanceUnit })}
              value={form.mileage}
              precision={3}
              maxIntegerLength={integerDigits(COUNTER_MAX)}
              onChange={(mileage) => onChange({ mileage })}
              disabled={busy || !correctable}
              error={errors.mileage}
              data-testid="service-mileage"
            />
            <NumericInput
              label={t('serviceEditor.engineHours')}
              value={form.engineHours}
              precision={3}
              maxIntegerLength={integerDigits(COUNTER_MAX)}
              onChange={(engineHours) => onChange({ engineHours })}
              disabled={busy || !correctable}
              error={errors.engineHours}
              data-testid="service-engine-hours"
            />
          </SimpleGrid>
          {correctable && (
            <Group gap="xs">
              <Button
                variant="light"
                size="xs"
                disabled={busy || counters === null}
                onClick={() => counters && onChange(counters)}
                data-testid="service-fill-counters"
              >
                {t('serviceEditor.fillCounters')}
              </Button>
              {isNew && chosen.length > 1 && (
                <Text size="xs" c="dimmed">
                  {t('serviceEditor.countersBatchHint')}
                </Text>
              )}
            </Group>
          )}
        </Stack>
      )}
      {form.lines.length > 0 || !correctable ? (
        <TextInput
          label={t('serviceEditor.totalCost')}
          readOnly
          variant="filled"
          value={formatMoney(form.lines.length > 0 ? lineTotal : (service?.total_cost ?? 0), props.currency, {
            locale: i18n.language,
          })}
          description={form.lines.length > 0 ? t('serviceEditor.totalFromLines') : undefined}
          data-testid="service-total"
        />
      ) : (
        <NumericInput
          label={t('serviceEditor.totalCost')}
          value={form.manualCost}
          precision={3}
          maxIntegerLength={9}
          onChange={(manualCost) => onChange({ manualCost })}
          disabled={busy || !correctable}
          error={errors.manualCost}
          description={t('serviceEditor.manualCostHint')}
          rightSection={
            <Text size="sm" c="dimmed">
              {props.currency}
            </Text>
          }
          rightSectionWidth={48}
          data-testid="service-manual-cost"
        />
      )}
    </Stack>
  );
}
