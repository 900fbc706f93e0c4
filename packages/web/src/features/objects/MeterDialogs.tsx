import { COUNTER_MAX, type MeterEntryWire, meterReadingBody, meterVoidBody } from '@fleetkeep/core';
import { Modal, Stack, Text, Textarea } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { NumericInput } from '../../components/NumericInput.tsx';
import { integerDigits } from '../../components/numeric.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import type { useMeterChanges } from './meterApi.ts';
import {
  type RecordField,
  type RecordForm,
  recordBody,
  recordDraft,
  recordFieldOf,
  type VoidForm,
  voidBody,
  voidFieldOf,
} from './meterForms.ts';

type Changes = ReturnType<typeof useMeterChanges>;

/**
 * "Record a reading" (docs/product.md "Meter integrity"): an odometer and/or engine hours value read now,
 * recorded with source manual through the same counter rules as a device's reading. A value the rules
 * void automatically is kept in the history with the reason.
 */
export function RecordReadingDialog(props: {
  miles: boolean;
  distanceUnit: string;
  record: Changes['record'];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const digits = integerDigits(COUNTER_MAX);
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<RecordForm, RecordField>({
    initial: recordDraft,
    schema: meterReadingBody,
    body: (d) => recordBody(d, props.miles),
    fieldOf: recordFieldOf,
    text: (problem) => (problem === 'required' ? t('meter.nothingToRecord') : t('meter.valueInvalid')),
    generic: t('common.error'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    props.record.mutate(recordBody(draft, props.miles), { onSuccess: props.onClose, onError: showRefusal });
  };
  return (
    <Modal opened onClose={props.onClose} title={t('meter.record')} centered>
      <Stack component="form" onSubmit={submit} gap="sm">
        <Text size="sm" c="dimmed">
          {t('meter.recordHint')}
        </Text>
        <NumericInput
          label={`${t('objects.mileage')}, ${props.distanceUnit}`}
          value={draft.mileage}
          precision={3}
          maxIntegerLength={digits}
          onChange={(v) => edit({ mileage: v }, 'mileage', 'hours')}
          error={errors.mileage || undefined}
          data-autofocus
          data-testid="meter-record-mileage"
        />
        <NumericInput
          label={`${t('objects.engineHours')}, ${t('objects.engineHoursUnit')}`}
          value={draft.hours}
          precision={3}
          maxIntegerLength={digits}
          onChange={(v) => edit({ hours: v }, 'hours', 'mileage')}
          error={errors.hours || undefined}
          data-testid="meter-record-hours"
        />
        <FormActions
          failure={failure}
          onCancel={props.onClose}
          busy={props.record.isPending}
          testId="meter-record-save"
        />
      </Stack>
    </Modal>
  );
}

/** "Void": why, required; the reading stays in the history and counts for nothing. */
export function VoidReadingDialog(props: {
  entry: MeterEntryWire;
  voidReading: Changes['voidReading'];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<VoidForm, 'reason'>({
    initial: () => ({ reason: '' }),
    schema: meterVoidBody,
    body: voidBody,
    fieldOf: voidFieldOf,
    text: (problem) => (problem === 'tooLong' ? t('meter.reasonTooLong') : t('meter.reasonRequired')),
    generic: t('common.error'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    props.voidReading.mutate(
      { id: props.entry.id, body: voidBody(draft) },
      { onSuccess: props.onClose, onError: showRefusal },
    );
  };
  return (
    <Modal opened onClose={props.onClose} title={t('meter.voidTitle')} centered>
      <Stack component="form" onSubmit={submit} gap="sm">
        <Text size="sm" c="dimmed">
          {t('meter.voidHint')}
        </Text>
        <Textarea
          label={t('meter.voidReason')}
          withAsterisk
          autosize
          minRows={2}
          value={draft.reason}
          onChange={(e) => edit({ reason: e.currentTarget.value }, 'reason')}
          error={errors.reason || undefined}
          data-autofocus
          data-testid="meter-void-reason"
        />
        <FormActions
          failure={failure}
          onCancel={props.onClose}
          busy={props.voidReading.isPending}
          submitLabel={t('meter.void')}
          color="red"
          testId="meter-void-save"
        />
      </Stack>
    </Modal>
  );
}
