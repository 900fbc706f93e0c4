import { teltonikaIoMapping, type UnitTypeAdminWire } from '@fleetkeep/core';
import { Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { useUnitTypeName } from '../../components/UnitTypeFilter.tsx';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useSetUnitTypeIo } from './api.ts';
import {
  type UnitTypeIoField,
  type UnitTypeIoForm,
  unitTypeIoBody,
  unitTypeIoDraft,
  unitTypeIoFieldOf,
} from './unitTypeIo.ts';

/**
 * A unit type's Teltonika IO elements (DESIGN §3, Teltonika port): the IO id of the mileage (metres or
 * kilometres) and of the engine hours (seconds or hours) → PUT /api/admin/unit_types/{id}/teltonika.
 * Empty ids mean IO 16 and the ignition.
 */
export function UnitTypeIoDialog({ type, onClose }: { type: UnitTypeAdminWire; onClose: () => void }) {
  const { t } = useTranslation();
  const typeName = useUnitTypeName();
  const save = useSetUnitTypeIo();
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<
    UnitTypeIoForm,
    UnitTypeIoField
  >({
    initial: () => unitTypeIoDraft(type.tio),
    schema: teltonikaIoMapping,
    body: unitTypeIoBody,
    fieldOf: unitTypeIoFieldOf,
    text: () => t('admin.teltonika.idInvalid'),
    generic: t('common.error'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    save.mutate({ id: type.id, body: unitTypeIoBody(draft) }, { onSuccess: onClose, onError: showRefusal });
  };

  return (
    <Modal opened onClose={onClose} title={t('admin.teltonika.dialog', { name: typeName(type.n) })} centered>
      <Stack component="form" onSubmit={submit} gap="sm">
        <TextInput
          label={t('admin.teltonika.mileage')}
          description={t('admin.teltonika.mileageHint')}
          inputMode="numeric"
          data-autofocus
          value={draft.mileageId}
          onChange={(e) => edit({ mileageId: e.currentTarget.value }, 'mileageId')}
          error={errors.mileageId || undefined}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="unit-type-mileage-unit">
            {t('admin.teltonika.valueUnit')}
          </Text>
          <SegmentedControl
            aria-labelledby="unit-type-mileage-unit"
            value={draft.mileageUnit}
            onChange={(v) => edit({ mileageUnit: v === 'km' ? 'km' : 'm' }, 'mileageUnit')}
            data={[
              { value: 'm', label: t('admin.teltonika.metres') },
              { value: 'km', label: t('admin.teltonika.kilometres') },
            ]}
          />
        </Stack>
        <TextInput
          label={t('admin.teltonika.hours')}
          description={t('admin.teltonika.hoursHint')}
          inputMode="numeric"
          value={draft.hoursId}
          onChange={(e) => edit({ hoursId: e.currentTarget.value }, 'hoursId')}
          error={errors.hoursId || undefined}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="unit-type-hours-unit">
            {t('admin.teltonika.valueUnit')}
          </Text>
          <SegmentedControl
            aria-labelledby="unit-type-hours-unit"
            value={draft.hoursUnit}
            onChange={(v) => edit({ hoursUnit: v === 'h' ? 'h' : 's' }, 'hoursUnit')}
            data={[
              { value: 's', label: t('admin.teltonika.seconds') },
              { value: 'h', label: t('admin.teltonika.hoursWord') },
            ]}
          />
        </Stack>
        <FormActions failure={failure} onCancel={onClose} busy={save.isPending} />
      </Stack>
    </Modal>
  );
}
