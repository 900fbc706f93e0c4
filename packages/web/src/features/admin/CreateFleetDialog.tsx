import { FLEET_CURRENCY_MAX, Limits } from '@fleetkeep/core';
import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';
import { detailsToFields } from '../../lib/fieldErrors.ts';
import { browserTimeZone, TIME_ZONES, utcOffsetText } from '../../lib/timeZones.ts';
import { useCreateFleet } from './api.ts';
import { type NewFleetForm, newFleetBody, newFleetNameError } from './rules.ts';

const FIELDS = ['n', 'aid', 'tz', 'cur', 'ms', 'fm'] as const;

/**
 * "Create fleet" (issue 9 "Fleets", PRODUCT.md "Administration"): name, owner account, time zone from the
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
  const [form, setForm] = useState<NewFleetForm>(() => ({
    n: '',
    aid: null,
    tz: browserTimeZone().tz,
    cur: '',
    ms: 0,
    fm: 1,
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const zones = useMemo(
    () =>
      TIME_ZONES.map((z) => ({
        value: String(z.tz),
        label: `${utcOffsetText(z.offset)} ${z.cities}${z.rule === 'none' ? '' : ` (${t('setup.summerTime')})`}`,
      })),
    [t],
  );
  const accountOptions = useMemo(
    () => accounts.map((a) => ({ value: String(a.id), label: a.n })),
    [accounts],
  );

  const change = <K extends keyof NewFleetForm>(key: K, value: NewFleetForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const nameError = newFleetNameError(form.n);
    if (nameError) {
      setErrors({ n: nameError === 'required' ? t('fleetAdmin.nameRequired') : t('fleetAdmin.nameTooLong') });
      return;
    }
    setFailure(null);
    create.mutate(newFleetBody(form), {
      onSuccess: (fleet) => onCreated(fleet.id),
      onError: (err) => {
        if (err instanceof ApiError && err.code === 4) {
          const mapped = detailsToFields(err.details, (path) =>
            (FIELDS as readonly string[]).includes(path[0] ?? '') ? (path[0] as string) : null,
          );
          setErrors(mapped.fields);
          setFailure(mapped.rest[0] ?? null);
        } else if (err instanceof ApiError && err.code === 7) {
          setFailure(t('admin.createRefused'));
        } else {
          setFailure(t('common.error'));
        }
      },
    });
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
        <Select
          label={t('fleetAdmin.timeZone')}
          data={zones}
          value={String(form.tz)}
          onChange={(v) => v !== null && change('tz', Number(v))}
          allowDeselect={false}
          searchable
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
