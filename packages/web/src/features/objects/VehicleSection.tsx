import { Limits, type UnitWire, unitUpdateBody, VEHICLE_PLATE_MAX, VEHICLE_TEXT_MAX } from '@fleetkeep/core';
import {
  Alert,
  Button,
  Group,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../components/NumericInput.tsx';
import { Select } from '../../components/Select.tsx';
import { client } from '../../lib/client.ts';
import { volumeLabel } from '../../lib/fuel.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { VehiclePhoto } from './VehiclePhoto.tsx';
import {
  UNIT_TAG_MAX,
  VEHICLE_FUEL_TYPES,
  type VehicleField,
  type VehicleForm,
  vehicleBodyOf,
  vehicleFieldOf,
  vehicleFormOf,
  vinState,
} from './vehicleForm.ts';

const VIN_COLOR = { empty: 'dimmed', valid: 'green', check: 'orange', length: 'red', chars: 'red' } as const;

/**
 * The "Vehicle" section of a unit's profile tab (docs/product.md "The vehicle profile"): photo, VIN with
 * its check digit read as it is typed, make, model, year, plate, fuel type, tank capacity, tags, notes;
 * saved with the unit's PUT.
 */
export function VehicleSection({
  fid,
  fleetFm,
  unit,
  editable,
}: {
  fid: number;
  /** The fleet's fuel unit (1 litres, 2 US gallons): the tank's unit when the profile has none. */
  fleetFm: number;
  unit: UnitWire;
  editable: boolean;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const tu: 1 | 2 = unit.vp?.tu ?? (fleetFm === 2 ? 2 : 1);
  const editor = useEditorForm<VehicleForm, VehicleField>({
    initial: () => vehicleFormOf(unit.vp),
    schema: unitUpdateBody,
    body: (f) => vehicleBodyOf(f, tu),
    fieldOf: vehicleFieldOf,
    text: (problem, field, limit) => {
      if (field === 'vin') return t('vehicle.vin_chars');
      if (problem === 'tooLong' || problem === 'tooMany') return t('vehicle.tooLong', { max: limit });
      return t('vehicle.outOfRange');
    },
    check: (f) => {
      const state = vinState(f.vin);
      return state === 'length' || state === 'chars' ? { vin: t(`vehicle.vin_${state}`) } : {};
    },
    record: { version: JSON.stringify(unit.vp), draft: () => vehicleFormOf(unit.vp) },
    leave: { tabParam: 'tab' },
    generic: t('objects.saveFailed'),
  });
  const { draft: form, errors, failure, edit, validate, showRefusal, dirty } = editor;
  const save = useMutation({
    mutationFn: (f: VehicleForm) => client.fleets.updateUnit(fid, unit.id, vehicleBodyOf(f, tu)),
    onSuccess: (saved) => editor.accept(vehicleFormOf(saved.vp), JSON.stringify(saved.vp)),
    onError: showRefusal,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid, 'avl_unit') }),
  });
  const change = <K extends keyof VehicleForm>(key: K, value: VehicleForm[K]) =>
    edit({ [key]: value } as Partial<VehicleForm>, key);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    save.mutate(form);
  };
  const vin = vinState(form.vin);
  const readOnly = !editable;

  return (
    <Stack gap="sm" component="form" onSubmit={submit} data-testid="vehicle-section">
      {editor.leaveWarning}
      <Title order={2} size="h4">
        {t('vehicle.title')}
      </Title>
      <VehiclePhoto fid={fid} unitId={unit.id} photoId={unit.ph ?? null} editable={editable} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Stack gap={4}>
          <TextInput
            label={t('vehicle.vin')}
            value={form.vin}
            maxLength={32}
            readOnly={readOnly}
            autoComplete="off"
            error={errors.vin || undefined}
            onChange={(e) => change('vin', e.currentTarget.value.toUpperCase())}
            styles={{ input: { fontFamily: 'monospace' } }}
            data-testid="vehicle-vin"
          />
          {vin !== 'empty' && !errors.vin && (
            <Text
              size="xs"
              c={VIN_COLOR[vin]}
              role={vin === 'check' ? 'status' : undefined}
              data-testid="vehicle-vin-check"
            >
              {t(`vehicle.vin_${vin}`)}
            </Text>
          )}
        </Stack>
        <TextInput
          label={t('vehicle.plate')}
          value={form.pl}
          maxLength={VEHICLE_PLATE_MAX}
          readOnly={readOnly}
          error={errors.pl || undefined}
          onChange={(e) => change('pl', e.currentTarget.value)}
          data-testid="vehicle-plate"
        />
        <TextInput
          label={t('vehicle.make')}
          value={form.mk}
          maxLength={VEHICLE_TEXT_MAX}
          readOnly={readOnly}
          error={errors.mk || undefined}
          onChange={(e) => change('mk', e.currentTarget.value)}
          data-testid="vehicle-make"
        />
        <TextInput
          label={t('vehicle.model')}
          value={form.md}
          maxLength={VEHICLE_TEXT_MAX}
          readOnly={readOnly}
          error={errors.md || undefined}
          onChange={(e) => change('md', e.currentTarget.value)}
          data-testid="vehicle-model"
        />
        <NumericInput
          label={t('vehicle.year')}
          value={form.yr}
          integerOnly
          maxIntegerLength={4}
          readOnly={readOnly}
          error={errors.yr || undefined}
          onChange={(v) => change('yr', v)}
          data-testid="vehicle-year"
        />
        <Select
          label={t('vehicle.fuelType')}
          options={VEHICLE_FUEL_TYPES.map((f) => ({
            value: f,
            label: t(`vehicle.fuel${f.charAt(0).toUpperCase()}${f.slice(1)}`),
          }))}
          value={form.ft || null}
          clearable
          readOnly={readOnly}
          error={errors.ft || undefined}
          onChange={(v) => change('ft', v ?? '')}
          data-testid="vehicle-fuel-type"
        />
        <NumericInput
          label={t('vehicle.tankCapacity', { unit: volumeLabel(i18n.language, tu) })}
          value={form.tc}
          maxIntegerLength={6}
          readOnly={readOnly}
          error={errors.tc || undefined}
          onChange={(v) => change('tc', v)}
          data-testid="vehicle-tank"
        />
        <TagsInput
          label={t('vehicle.tags')}
          description={t('vehicle.tagsHint')}
          value={form.tg}
          readOnly={readOnly}
          maxTags={20}
          splitChars={[',', ';']}
          error={errors.tg || undefined}
          onChange={(tags) =>
            change(
              'tg',
              tags.map((tag) => tag.slice(0, UNIT_TAG_MAX)),
            )
          }
          data-testid="vehicle-tags"
        />
      </SimpleGrid>
      <Textarea
        label={t('vehicle.notes')}
        value={form.nt}
        autosize
        minRows={2}
        maxLength={Limits.descriptionMax}
        readOnly={readOnly}
        error={errors.nt || undefined}
        onChange={(e) => change('nt', e.currentTarget.value)}
        data-testid="vehicle-notes"
      />
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {editable && (
        <Group justify="flex-end">
          <Button type="submit" disabled={!dirty} loading={save.isPending} data-testid="vehicle-save">
            {t('common.save')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
