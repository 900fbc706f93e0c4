import { COUNTER_MAX, type WorkOrderWire, workOrderCompleteBody } from '@fleetkeep/core';
import { Modal, Stack, Text } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { NumericInput } from '../../components/NumericInput.tsx';
import { useEditorForm } from '../../lib/useEditorForm.tsx';

interface MeterDraft {
  mileage: string;
  engine_hours: string;
}
type Field = keyof MeterDraft;
const fieldOf = (path: readonly string[]): Field | null =>
  path[0] === 'mileage' || path[0] === 'engine_hours' ? path[0] : null;

const num = (text: string) => (text.trim() === '' ? null : Number(text));
export const meterBody = (d: MeterDraft) => ({ mileage: num(d.mileage), engine_hours: num(d.engine_hours) });

/**
 * "Complete the work order": asks the meter at completion, the unit's counters filled in (a trailer has
 * none); on OK the linked services close, the work is archived and the issues resolve.
 */
export function CompleteDialog({
  wo,
  counters,
  busy,
  onCancel,
  onComplete,
}: {
  wo: WorkOrderWire;
  counters: { mileage: number; engineHours: number } | null;
  busy: boolean;
  onCancel: () => void;
  onComplete: (meter: { mileage: number | null; engine_hours: number | null }) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<MeterDraft, Field>({
    initial: () => ({
      mileage: counters ? String(Math.round(counters.mileage)) : '',
      engine_hours: counters ? String(Math.round(counters.engineHours * 10) / 10) : '',
    }),
    schema: workOrderCompleteBody,
    body: meterBody,
    fieldOf,
    text: () => t('fleetAdmin.notify.invalid'),
    generic: t('common.error'),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    try {
      await onComplete(meterBody(draft));
    } catch (err) {
      showRefusal(err);
    }
  };
  return (
    <Modal
      opened
      onClose={onCancel}
      title={t('workOrders.completeTitle')}
      centered
      data-testid="wo-complete-dialog"
    >
      <Stack component="form" onSubmit={(e) => void submit(e)} gap="sm">
        <Text size="sm">{t('workOrders.completeHint')}</Text>
        {wo.object_type === 'u' && (
          <>
            <NumericInput
              label={t('workOrders.field.mileage')}
              value={draft.mileage}
              precision={0}
              maxIntegerLength={String(COUNTER_MAX).length}
              onChange={(mileage) => edit({ mileage }, 'mileage')}
              error={errors.mileage || undefined}
              data-testid="wo-complete-mileage"
            />
            <NumericInput
              label={t('workOrders.field.engineHours')}
              value={draft.engine_hours}
              precision={1}
              maxIntegerLength={String(COUNTER_MAX).length}
              onChange={(engine_hours) => edit({ engine_hours }, 'engine_hours')}
              error={errors.engine_hours || undefined}
            />
          </>
        )}
        <FormActions
          failure={failure}
          onCancel={onCancel}
          busy={busy}
          submitLabel={t('workOrders.action.complete')}
          testId="wo-complete-submit"
        />
      </Stack>
    </Modal>
  );
}
