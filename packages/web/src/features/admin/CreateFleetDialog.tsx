import { FLEET_CURRENCY_MAX, fleetCreateBody, Limits } from '@fleetkeep/core';
import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeZoneSelect } from '../../components/TimeZoneSelect.tsx';
import type { Problem } from '../../lib/coreResolver.ts';
import { browserTimeZone } from '../../lib/timeZones.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useCreateFleet } from './api.ts';
import { type NewFleetForm, newFleetBody } from './rules.ts';

const FIELDS = ['n', 'aid', 'tz', 'cur', 'ms', 'fm'] as const;
type Field = (typeof FIELDS)[number];
const fieldOf = (path: readonly string[]): Field | null =>
  FIELDS.includes(path[0] as Field) ? (path[0] as Field) : null;

/**
 * "Create fleet" (PRODUCT.md "Administration"): name, owner account, time zone from the
 * list, currency, distance and fuel units → POST /api/fleets. The account defaults to the user's own.
 */
export function CreateFleetDialog({
  accounts,
  onClose,
  onCreated,
}: {
  /** Accounts the user may create in (GET /api/admin/accounts); empty while unknown. */
  accounts: readonly { id: number; n: string }[];
  onClose: () => void;
  onCreated: (fleetId: number) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateFleet();
  const problemText = (problem: Problem, field: Field, limit: number | null) => {
    if (field === 'n')
      return problem === 'required' ? t('fleetAdmin.nameRequired') : t('fleetAdmin.nameTooLong');
    if (problem === 'tooLong') return t('fleetAdmin.objects.tooLong', { max: limit });
    return t('fleetAdmin.notify.invalid');
  };
  const {
    draft: form,
    errors,
    failure,
    edit,
    validate,
    showRefusal,
  } = useEditorForm<NewFleetForm, Field>({
    initial: () => ({ n: '', aid: null, tz: browserTimeZone().tz, cur: '', ms: 0, fm: 1 }),
    schema: fleetCreateBody,
    body: newFleetBody,
    fieldOf,
    text: problemText,
    generic: t('common.error'),
    // Only a refused input (error 4) names fields; "not allowed here" (7) and the rest are said in words.
    reword: (err, view) => {
      if (err.code === 4) return view;
      // 409 on `body.n`: the account has a fleet of that name, said in the user's language.
      if (err.code === 10 && 'n' in view.fields)
        return { fields: { n: t('fleetAdmin.nameTaken') }, failure: null };
      return { fields: {}, failure: err.code === 7 ? t('admin.createRefused') : t('common.error') };
    },
  });

  const accountOptions = useMemo(
    () => accounts.map((a) => ({ value: String(a.id), label: a.n })),
    [accounts],
  );

  const change = <K extends keyof NewFleetForm>(key: K, value: NewFleetForm[K]) =>
    edit({ [key]: value } as Partial<NewFleetForm>, key);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    create.mutate(newFleetBody(form), { onSuccess: (fleet) => onCreated(fleet.id), onError: showRefusal });
  };

  return (
    <Modal opened onClose={onClose} title={t('admin.newFleet')} centered>
      <Stack component="form" onSubmit={submit} gap="sm">
        <TextInput
          label={t('fleetAdmin.name')}
          // The asterisk without the browser's own check: the form says what is missing (spec §5).
          withAsterisk
          data-autofocus
          maxLength={Limits.stringMax}
          value={form.n}
          onChange={(e) => change('n', e.currentTarget.value)}
          error={errors.n || undefined}
        />
        {accountOptions.length > 0 && (
          <Select
            label={t('admin.account')}
            data={accountOptions}
            value={form.aid}
            onChange={(v) => change('aid', v)}
            placeholder={t('activation.ownAccount')}
            searchable
            clearable
            error={errors.aid || undefined}
          />
        )}
        <TimeZoneSelect
          label={t('fleetAdmin.timeZone')}
          value={form.tz}
          onChange={(tz) => change('tz', tz)}
          error={errors.tz || undefined}
        />
        <TextInput
          label={t('fleetAdmin.currency')}
          description={t('setup.currencyHint')}
          maxLength={FLEET_CURRENCY_MAX}
          value={form.cur}
          onChange={(e) => change('cur', e.currentTarget.value)}
          error={errors.cur || undefined}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="new-fleet-ms">
            {t('fleetAdmin.distanceUnit')}
          </Text>
          <SegmentedControl
            aria-labelledby="new-fleet-ms"
            value={String(form.ms)}
            onChange={(v) => change('ms', v === '1' ? 1 : 0)}
            data={[
              { value: '0', label: t('fleetAdmin.km') },
              { value: '1', label: t('fleetAdmin.miles') },
            ]}
          />
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="new-fleet-fm">
            {t('fleetAdmin.fuelUnit')}
          </Text>
          <SegmentedControl
            aria-labelledby="new-fleet-fm"
            value={String(form.fm)}
            onChange={(v) => change('fm', v === '2' ? 2 : 1)}
            data={[
              { value: '1', label: t('fleetAdmin.litres') },
              { value: '2', label: t('fleetAdmin.gallons') },
            ]}
          />
        </Stack>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t('admin.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
