import { COUNTER_MAX, Limits, UNIT_DEVICE_ID_MAX, type UnitWire, unitLabel } from '@fleetkeep/core';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../../components/NumericInput.tsx';
import { integerDigits } from '../../../components/numeric.ts';
import { Select } from '../../../components/Select.tsx';
import { toast } from '../../../components/Toasts.tsx';
import { useUnitTypeName } from '../../../components/UnitTypeFilter.tsx';
import { useSession } from '../../../lib/session.ts';
import { UNKNOWN_TYPE } from '../../../lib/unitTypes.ts';
import { useEditorForm } from '../../../lib/useEditorForm.tsx';
import { useCreateUnit, useUpdateUnit } from './api.ts';
import { deviceTaken, fieldAmong, objectProblemText } from './problems.ts';
import { EMPTY_UNIT_FORM, type UnitForm, unitCheckedBody, unitCreateBodyOf, unitSchema } from './rules.ts';

const FIELDS = ['nm', 'uid', 'ut', 'cnm', 'cneh'] as const;
const COUNTER_DIGITS = integerDigits(COUNTER_MAX);

/**
 * New unit of the fleet (PRODUCT.md "Service objects and counters": name, device identifier unique across the
 * installation, unit type, optional starting mileage in the fleet's distance unit and engine hours, which
 * the server records as a hand correction), or editing one (name, type, and the device identifier when the
 * tracker was replaced).
 */
export function UnitDialog({
  fid,
  ms,
  unit,
  onClose,
}: {
  fid: number;
  /** The fleet's distance unit (1 miles). */
  ms: number;
  unit: Pick<UnitWire, 'id' | 'nm' | 'uid' | 'ut'> | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const types = session.status === 'authenticated' ? session.auth.unit_types : [];
  const typeName = useUnitTypeName();
  const create = useCreateUnit(fid);
  const update = useUpdateUnit(fid);
  const {
    draft: form,
    errors,
    failure: rest,
    edit,
    validate,
    showRefusal,
  } = useEditorForm<UnitForm, (typeof FIELDS)[number]>({
    initial: () => (unit ? { ...EMPTY_UNIT_FORM, nm: unit.nm, uid: unit.uid, ut: unit.ut } : EMPTY_UNIT_FORM),
    schema: unitSchema(unit === null),
    body: (f) => unitCheckedBody(f, ms, unit === null),
    fieldOf: fieldAmong(FIELDS),
    text: objectProblemText(t),
    generic: t('objects.saveFailed'),
    reword: deviceTaken(t),
  });
  const busy = create.isPending || update.isPending;
  const distanceUnit = unitLabel(i18n.language, ms === 1 ? 'mile' : 'kilometer', 2);

  const change = <K extends keyof UnitForm>(key: K, value: UnitForm[K]) =>
    edit({ [key]: value } as Partial<UnitForm>, key);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    if (unit)
      update.mutate(
        {
          id: unit.id,
          body: { nm: form.nm.trim(), ut: form.ut },
          ...(form.uid.trim() !== unit.uid && { uid: form.uid.trim() }),
        },
        { onSuccess: onClose, onError: showRefusal },
      );
    else
      create.mutate(unitCreateBodyOf(form, ms), {
        onSuccess: () => {
          toast(t('fleetAdmin.objects.unitCreated', { name: form.nm.trim() }));
          onClose();
        },
        onError: showRefusal,
      });
  };

  const typeOptions = [
    ...types.map((ut) => ({ value: String(ut.id), label: typeName(ut.n) })),
    { value: UNKNOWN_TYPE, label: t('objects.typeUnknown') },
  ];

  return (
    <Modal
      opened
      onClose={onClose}
      title={unit ? t('fleetAdmin.objects.editUnit') : t('fleetAdmin.objects.newUnit')}
      centered
    >
      <Stack component="form" onSubmit={submit} gap="sm" data-testid="unit-dialog">
        <TextInput
          label={t('objects.name')}
          withAsterisk
          data-autofocus
          autoComplete="off"
          value={form.nm}
          maxLength={Limits.stringMax}
          error={errors.nm || undefined}
          onChange={(e) => change('nm', e.currentTarget.value)}
          data-testid="unit-name"
        />
        <TextInput
          label={t('objects.deviceId')}
          withAsterisk
          autoComplete="off"
          value={form.uid}
          maxLength={UNIT_DEVICE_ID_MAX}
          error={errors.uid || undefined}
          onChange={(e) => change('uid', e.currentTarget.value)}
          data-testid="unit-device-id"
        />
        <Select
          label={t('objects.unitType')}
          options={typeOptions}
          value={form.ut === null ? UNKNOWN_TYPE : String(form.ut)}
          allowDeselect={false}
          error={errors.ut || undefined}
          onChange={(v) => v !== null && change('ut', v === UNKNOWN_TYPE ? null : Number(v))}
          data-testid="unit-type"
        />
        {unit === null && (
          <>
            <NumericInput
              label={t('fleetAdmin.objects.startMileage', { unit: distanceUnit })}
              value={form.cnm}
              maxIntegerLength={COUNTER_DIGITS}
              error={errors.cnm || undefined}
              onChange={(v) => change('cnm', v)}
              data-testid="unit-start-mileage"
            />
            <NumericInput
              label={t('fleetAdmin.objects.startEngineHours')}
              value={form.cneh}
              maxIntegerLength={COUNTER_DIGITS}
              error={errors.cneh || undefined}
              onChange={(v) => change('cneh', v)}
              data-testid="unit-start-engine-hours"
            />
            <Text size="xs" c="dimmed">
              {t('fleetAdmin.objects.startHint')}
            </Text>
          </>
        )}
        {rest && (
          <Alert color="red" role="alert">
            {rest}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="unit-dialog-save">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
