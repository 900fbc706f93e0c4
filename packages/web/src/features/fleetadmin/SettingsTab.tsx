import {
  FLEET_CURRENCY_MAX,
  type FleetWire,
  Limits,
  METER_DAILY_DISTANCE_MAX_KM,
  METER_DAILY_DISTANCE_MIN_KM,
  unitLabel,
} from '@fleetkeep/core';
import { Alert, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../components/NumericInput.tsx';
import { integerDigits, numericValue } from '../../components/numeric.ts';
import { TimeZoneSelect } from '../../components/TimeZoneSelect.tsx';
import { ApiError } from '../../lib/api.ts';
import { displayToKm, kmToDisplay } from '../../lib/distance.ts';
import { detailsToFields } from '../../lib/fieldErrors.ts';
import { useLeaveWarning } from '../../lib/useLeaveWarning.tsx';
import { useUpdateFleet } from './api.ts';
import { CriticalFaultCodes } from './CriticalFaultCodes.tsx';
import { PullCounters } from './PullCounters.tsx';

/** The editable settings of a fleet (PRODUCT.md "Administration"). */
interface Form {
  n: string;
  tz: number;
  cur: string;
  ms: 0 | 1;
  fm: 1 | 2;
  /**
   * meterDailyDistanceMax (docs/product.md "Meter integrity"), in the unit the form shows (km or miles,
   * as the fleet's `ms` stood when it was loaded), as typed.
   */
  mdd: string;
}
const FIELDS = ['n', 'tz', 'cur', 'ms', 'fm', 'mdd'] as const;

/** Whole km or miles: the limit is a rough bound, not a counter. */
const shownLimit = (km: number, miles: boolean) => String(Math.round(kmToDisplay(km, miles)));

function formOf(fleet: FleetWire): Form {
  return {
    n: fleet.n,
    tz: fleet.tz,
    cur: fleet.cur,
    ms: fleet.ms === 1 ? 1 : 0,
    fm: fleet.fm === 2 ? 2 : 1,
    mdd: shownLimit(fleet.mdd, fleet.ms === 1),
  };
}

/**
 * Settings tab: name, time zone, currency, distance and fuel units, the daily distance limit of meter
 * readings; read-only without admin.
 */
export function SettingsTab({ fleet, readOnly }: { fleet: FleetWire; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<Form>(() => formOf(fleet));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useUpdateFleet(fleet.id);
  const original = formOf(fleet);
  const dirty = FIELDS.some((f) => form[f] !== original[f]);
  const leaveWarning = useLeaveWarning(dirty && !readOnly, { tabParam: 'tab' });
  const busy = update.isPending;
  const disabled = readOnly || busy;

  const change = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
    setSaved(false);
  };

  // The limit is typed in the unit the fleet had when loaded; a change of `ms` converts what is shown.
  const miles = fleet.ms === 1;
  const limitKm = (() => {
    const v = numericValue(form.mdd.trim());
    return v === null ? null : Math.round(displayToKm(v, miles) * 1000) / 1000;
  })();
  const limitError =
    limitKm === null || limitKm < METER_DAILY_DISTANCE_MIN_KM || limitKm > METER_DAILY_DISTANCE_MAX_KM
      ? t('fleetAdmin.meterDailyMaxInvalid')
      : null;

  const nameError =
    form.n.trim() === ''
      ? t('fleetAdmin.nameRequired')
      : form.n.length > Limits.stringMax
        ? t('fleetAdmin.nameTooLong')
        : null;

  const save = async () => {
    if (nameError || limitError) {
      setErrors({ ...(nameError && { n: nameError }), ...(limitError && { mdd: limitError }) });
      return;
    }
    setFailure(null);
    try {
      const { mdd: _typed, ...settings } = form;
      const changedLimit = form.mdd !== original.mdd;
      await update.mutateAsync({
        ...settings,
        n: form.n.trim(),
        ...(changedLimit && limitKm !== null && { mdd: limitKm }),
      });
      setSaved(true);
    } catch (err) {
      if (err instanceof ApiError && err.code === 10) {
        // 409 on `body.n`: another fleet of the account has the name.
        setErrors({ n: t('fleetAdmin.nameTaken') });
      } else if (err instanceof ApiError && err.code === 4) {
        const mapped = detailsToFields(err.details, (path) =>
          (FIELDS as readonly string[]).includes(path[0] ?? '') ? (path[0] as string) : null,
        );
        setErrors(mapped.fields);
        setFailure(mapped.rest[0] ?? null);
      } else {
        setFailure(err instanceof ApiError ? err.reason : t('common.error'));
      }
    }
  };

  return (
    <Stack maw={560}>
      {leaveWarning}
      {readOnly && (
        <Text size="sm" c="dimmed" data-testid="fleet-settings-readonly">
          {t('fleetAdmin.readOnly')}
        </Text>
      )}
      <TextInput
        label={t('fleetAdmin.name')}
        required
        maxLength={Limits.stringMax}
        value={form.n}
        onChange={(e) => change('n', e.currentTarget.value)}
        error={errors.n || undefined}
        disabled={disabled}
        data-testid="fleet-name"
      />
      <TimeZoneSelect
        label={t('fleetAdmin.timeZone')}
        value={form.tz}
        onChange={(tz) => change('tz', tz)}
        error={errors.tz || undefined}
        disabled={disabled}
        data-testid="fleet-tz"
      />
      <TextInput
        label={t('fleetAdmin.currency')}
        maxLength={FLEET_CURRENCY_MAX}
        value={form.cur}
        onChange={(e) => change('cur', e.currentTarget.value)}
        error={errors.cur || undefined}
        disabled={disabled}
        data-testid="fleet-currency"
      />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('fleetAdmin.distanceUnit')}
        </Text>
        <SegmentedControl
          value={String(form.ms)}
          onChange={(v) => change('ms', v === '1' ? 1 : 0)}
          data={[
            { value: '0', label: t('fleetAdmin.km') },
            { value: '1', label: t('fleetAdmin.miles') },
          ]}
          disabled={disabled}
          data-testid="fleet-ms"
        />
      </Stack>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('fleetAdmin.fuelUnit')}
        </Text>
        <SegmentedControl
          value={String(form.fm)}
          onChange={(v) => change('fm', v === '2' ? 2 : 1)}
          data={[
            { value: '1', label: t('fleetAdmin.litres') },
            { value: '2', label: t('fleetAdmin.gallons') },
          ]}
          disabled={disabled}
          data-testid="fleet-fm"
        />
      </Stack>
      <NumericInput
        label={`${t('fleetAdmin.meterDailyMax')}, ${unitLabel(i18n.language, miles ? 'mile' : 'kilometer', 2)}`}
        description={t('fleetAdmin.meterDailyMaxHint')}
        value={form.mdd}
        precision={0}
        maxIntegerLength={integerDigits(METER_DAILY_DISTANCE_MAX_KM)}
        onChange={(v) => change('mdd', v)}
        error={errors.mdd || undefined}
        disabled={disabled}
        data-testid="fleet-mdd"
      />
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {!readOnly && (
        <Group gap="sm">
          <Button
            onClick={() => void save()}
            loading={busy}
            disabled={!dirty}
            data-testid="fleet-settings-save"
          >
            {t('common.save')}
          </Button>
          {saved && !dirty && (
            <Text size="sm" c="green" data-testid="fleet-settings-saved">
              {t('fleetAdmin.saved')}
            </Text>
          )}
        </Group>
      )}
      <CriticalFaultCodes fid={fleet.id} readOnly={readOnly} />
      {!readOnly && <PullCounters fid={fleet.id} />}
    </Stack>
  );
}
