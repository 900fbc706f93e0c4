import { COUNTER_MAX, componentMountBody, TYRE_KIND } from '@fleetkeep/core';
import { Modal, Stack, Text, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { NumericInput } from '../../components/NumericInput.tsx';
import { Select } from '../../components/Select.tsx';
import { displayToKm } from '../../lib/distance.ts';
import { useUnits } from '../../lib/fleetData.ts';
import { useSession } from '../../lib/session.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useComponentAction, useComponents } from './api.ts';
import { useComponentFormat } from './format.ts';

interface Draft {
  component: string;
  unit_id: string;
  position: string;
  odometer: string;
}
type Field = keyof Draft;
const fieldOf = (path: readonly string[]): Field | null => {
  const f = path[0];
  return f === 'unit_id' || f === 'position' || f === 'odometer' ? f : null;
};

/**
 * "Mount": a component in stock onto a unit at a position, the odometer defaulting to the unit's
 * current mileage. From a component's page the unit and position are chosen; from the unit's tyre
 * diagram both are given and the tyre in stock is chosen.
 */
export function MountDialog({
  componentId,
  unitId,
  position,
  onClose,
}: {
  componentId?: number;
  unitId?: number;
  position?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const units = useUnits(fid);
  const stock = useComponents(componentId === undefined ? fid : null, { kind: TYRE_KIND, state: 'stock' });
  const act = useComponentAction(fid);
  const fmt = useComponentFormat();
  const bodyOf = (d: Draft) => ({
    unit_id: Number(d.unit_id),
    position: d.position,
    ...(d.odometer.trim() === '' ? {} : { odometer: displayToKm(Number(d.odometer), fmt.miles) }),
  });
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<Draft, Field>({
    initial: () => ({
      component: componentId ? String(componentId) : '',
      unit_id: unitId ? String(unitId) : '',
      position: position ?? '',
      odometer: '',
    }),
    schema: componentMountBody,
    body: bodyOf,
    fieldOf,
    text: () => t('fleetAdmin.notify.invalid'),
    generic: t('common.error'),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft.component || !validate()) return;
    try {
      await act.mutateAsync({ action: 'mount', id: Number(draft.component), body: bodyOf(draft) });
      onClose();
    } catch (err) {
      showRefusal(err);
    }
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('components.mountTitle')}
      centered
      data-testid="comp-mount-dialog"
    >
      <Stack component="form" onSubmit={(e) => void submit(e)} gap="sm">
        {componentId === undefined && (
          <Select
            label={t('components.kind.tyre')}
            options={(stock.data ?? []).map((c) => ({
              value: String(c.id),
              label: [c.serial || `#${c.id}`, c.brand, c.model].filter(Boolean).join(' · '),
            }))}
            value={draft.component || null}
            onChange={(v) => edit({ component: v ?? '' }, 'component')}
            data-testid="comp-mount-component"
          />
        )}
        {unitId === undefined && (
          <Select
            label={t('components.field.unit')}
            options={(units.data ?? []).map((u) => ({ value: String(u.id), label: u.nm }))}
            value={draft.unit_id || null}
            onChange={(v) => edit({ unit_id: v ?? '' }, 'unit_id')}
            error={errors.unit_id || undefined}
            data-testid="comp-mount-unit"
          />
        )}
        {position === undefined ? (
          <TextInput
            label={t('components.field.position')}
            description={t('components.positionHint')}
            value={draft.position}
            onChange={(e) => edit({ position: e.currentTarget.value }, 'position')}
            error={errors.position || undefined}
            data-testid="comp-mount-position"
          />
        ) : (
          <Text size="sm">
            {t('components.field.position')}: <b>{position}</b>
          </Text>
        )}
        <NumericInput
          label={`${t('components.field.odometer')}, ${fmt.distanceUnit}`}
          description={t('components.odometerHint')}
          value={draft.odometer}
          precision={0}
          maxIntegerLength={String(COUNTER_MAX).length}
          onChange={(odometer) => edit({ odometer }, 'odometer')}
          error={errors.odometer || undefined}
          data-testid="comp-mount-odometer"
        />
        <FormActions
          failure={failure}
          onCancel={onClose}
          busy={act.isPending}
          submitLabel={t('components.action.mount')}
          testId="comp-mount-submit"
        />
      </Stack>
    </Modal>
  );
}
