import {
  COUNTER_MAX,
  countingBasis,
  DECIMAL_MAX,
  FUEL_TEXT_MAX,
  type FuelFillingWire,
  formatMoney,
  formatNumber,
  formatWhole,
  fromThousandths,
  fuelFillingCreateBody,
  Limits,
  LineItemKind,
  routes,
  unitLabel,
} from '@fleetkeep/core';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CreatableSelect } from '../../components/CreatableSelect.tsx';
import { CustomFieldsEditor } from '../../components/CustomFieldsEditor.tsx';
import { DatePicker } from '../../components/DatePicker.tsx';
import { Loading } from '../../components/Loading.tsx';
import { NumericInput } from '../../components/NumericInput.tsx';
import { integerDigits } from '../../components/numeric.ts';
import { Select } from '../../components/Select.tsx';
import { TimePicker } from '../../components/TimePicker.tsx';
import { ApiError } from '../../lib/api.ts';
import { useCustomFields, useLibrary, useUnits } from '../../lib/fleetData.ts';
import { consumptionLabel, fuelKeys, useFuelFilling, volumeLabel } from '../../lib/fuel.ts';
import { naturalCollator } from '../../lib/naturalSort.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useSession } from '../../lib/session.ts';
import { usePermissions } from '../../lib/useCan.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useCreateFilling, useDeleteFilling, useFuelPresets, useUpdateFilling } from './api.ts';
import { FuelAttachments } from './FuelAttachments.tsx';
import {
  checkedBody,
  computedTotal,
  createBody,
  decodeUnit,
  emptyForm,
  type FuelForm,
  fieldOfPath,
  fleetClock,
  fleetToday,
  formFromFilling,
  mileageText,
  ownProblems,
  type Problem,
  problemOfCore,
  tankExceeded,
  updateBody,
  withFuelType,
  withUnit,
} from './rules.ts';

/**
 * Spec §2 /fuelfilling/{id}: the fuel filling editor. 'new' creates (the route guard asks
 * manageFuelFilling); any other id is loaded, and a missing one goes to / (spec §8 "Fuel filling load
 * failure"). Without manageFuelFilling the filling is shown read-only.
 */
export default function FuelEditorScreen() {
  const params = useParams();
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const isNew = params.id === 'new';
  const id = !isNew && /^\d+$/.test(params.id ?? '') ? Number(params.id) : null;
  const filling = useFuelFilling(fid, id);
  // Where the editor went after deleting the filling (its query then fails: that is no load failure).
  const [gone, setGone] = useState<string | null>(null);
  if (fid === null) return null;
  if (gone !== null) return <Navigate to={gone} replace />;
  if (!isNew && (id === null || filling.isError)) {
    if (filling.isError) console.warn('Fuel filling load failed', filling.error);
    return <Navigate to="/" replace />;
  }
  if (!isNew && filling.isPending) return <Loading />;
  return (
    <Editor key={id ?? 'new'} fid={fid} filling={isNew ? null : (filling.data ?? null)} onDeleted={setGone} />
  );
}

const PROBLEM_KEY: Record<Problem, string> = {
  required: 'serviceEditor.problem.required',
  invalidNumber: 'serviceEditor.problem.invalidNumber',
  positive: 'serviceEditor.problem.positive',
  tooLarge: 'serviceEditor.problem.tooLarge',
  tooLong: 'serviceEditor.problem.tooLong',
  notAfterToday: 'serviceEditor.problem.notAfterToday',
  priceOrTotal: 'fuel.problemPriceOrTotal',
};

function Editor({
  fid,
  filling,
  onDeleted,
}: {
  fid: number;
  filling: FuelFillingWire | null;
  onDeleted: (to: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const can = usePermissions();
  const isNew = filling === null;
  // A driver adds fillings without reading or changing them (core needs.ts `fuel.add`).
  const editable = isNew ? can(routes.fuel.create) : can(routes.fuel.update);
  const readsFillings = can(routes.fuel.get);
  const canDelete = can(routes.fuel.remove);
  const miles = fleet?.ms === 1;
  const tz = fleet?.tz ?? 0;
  const currency = fleet?.cur ?? '';
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const timeFormat = auth?.model.s.timeFormat || 'HH:mm';
  const lang = i18n.language;
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const client = useQueryClient();
  const nowSeconds = Math.floor(Date.now() / 1000);
  const today = fleetToday(tz, nowSeconds);

  const units = useUnits(fid);
  // The library's fuel types need lineitem.view, which a driver lacks: then the type is typed in.
  const readsLibrary = can(routes.lineitems.list);
  const library = useLibrary(readsLibrary ? fid : null);
  const presets = useFuelPresets(fid, readsLibrary);
  const fields = useCustomFields(fid);
  const create = useCreateFilling(fid);
  const update = useUpdateFilling(fid);
  const remove = useDeleteFilling(fid);

  const stateUnit = decodeUnit(search);
  const fromUnit = search.get('from') === 'unit' || stateUnit !== null;
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const {
    draft: form,
    clean: initial,
    errors,
    failure: formError,
    setFailure: setFormError,
    dirty,
    edit,
    validate,
    showRefusal,
    accept,
    leaveWarning,
  } = useEditorForm<FuelForm, string>({
    initial: () =>
      filling
        ? formFromFilling(filling, tz, miles)
        : emptyForm(fleetClock(tz, nowSeconds), stateUnit === null ? null : { id: stateUnit }, miles),
    schema: fuelFillingCreateBody,
    body: (f) => checkedBody(f, miles),
    fieldOf: fieldOfPath,
    text: (problem) => t(PROBLEM_KEY[problemOfCore(problem)]),
    check: (f) => {
      const own: Record<string, string> = {};
      for (const [field, problem] of Object.entries(ownProblems(f, today)))
        own[field] = t(PROBLEM_KEY[problem]);
      return own;
    },
    // A change made elsewhere (a live event's refetch) reloads the form unless the user is editing it.
    record: filling ? { version: filling.updated, draft: () => formFromFilling(filling, tz, miles) } : null,
    // Navigating away after a create or a delete asks nothing.
    leave: editable && leaveTo === null ? {} : false,
    generic: t('serviceEditor.saveFailed', { reason: t('common.error') }),
    reword: (_err, view) => ({
      fields: view.fields,
      failure: view.failure === null ? null : t('serviceEditor.saveFailed', { reason: view.failure }),
    }),
  });

  const unitById = useMemo(() => new Map((units.data ?? []).map((u) => [u.id, u])), [units.data]);
  const unitOptions = useMemo(() => {
    const list = [...(units.data ?? [])].sort((a, b) => naturalCollator.compare(a.nm, b.nm));
    const options = list.map((u) => ({ value: String(u.id), label: u.nm }));
    if (form.uid !== null && !unitById.has(Number(form.uid)) && units.data)
      options.unshift({ value: form.uid, label: `#${form.uid}` });
    return options;
  }, [units.data, unitById, form.uid]);

  // A new filling of a unit named in the URL takes the unit's counter once the units are in (PRODUCT.md).
  useEffect(() => {
    if (!isNew || !units.data || form.uid === null || form.mileage !== '') return;
    const unit = unitById.get(Number(form.uid));
    const patch = unit ? { mileage: mileageText(unit.cnm, miles) } : { uid: null };
    if (dirty) edit(patch);
    else accept({ ...form, ...patch });
  }, [isNew, units.data, unitById, miles]);

  // Navigate only once the form counts as saved, so that the leave-page warning does not ask.
  useEffect(() => {
    if (leaveTo !== null) navigate(leaveTo, { replace: leaveTo.startsWith('/fuelfilling/') });
  }, [leaveTo, navigate]);

  const fuelItems = useMemo(
    () => (library.data ?? []).filter((i) => i.t === LineItemKind.fuel),
    [library.data],
  );
  const fuelOptions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const i of fuelItems) if (!seen.has(i.n.toLowerCase())) seen.set(i.n.toLowerCase(), i.n);
    for (const p of presets.data ?? []) if (!seen.has(p.n.toLowerCase())) seen.set(p.n.toLowerCase(), p.n);
    const typed = form.fuelType.trim();
    if (typed && !seen.has(typed.toLowerCase())) seen.set(typed.toLowerCase(), typed);
    return [...seen]
      .map(([value, label]) => ({ value, label }))
      .sort((a, b) => naturalCollator.compare(a.label, b.label));
  }, [fuelItems, presets.data, form.fuelType]);

  // The errors of the fields a change touches go (the price's "price or total" with the total and volume).
  const change = (patch: Partial<FuelForm>) => {
    setSaved(false);
    const keys = Object.keys(patch);
    const clear = [...keys, ...('manualCost' in patch || 'volume' in patch ? ['price'] : [])];
    edit(patch, ...clear, ...('cf' in patch ? ['cf.' as const] : []), ...('date' in patch ? ['time'] : []));
  };
  // Custom field errors name the index of the value sent, which is the form's list.
  const cfErrors: Record<number, string> = {};
  form.cf.forEach((v, i) => {
    const e = errors[`cf.${i}`];
    if (e) cfErrors[v.id] = e;
  });

  const back = fromUnit && form.uid !== null ? `/unit/${form.uid}?tab=fuel` : '/fuelfillings';

  const save = async () => {
    setSaved(false);
    if (!validate()) return;
    setBusy(true);
    try {
      if (isNew) {
        const created = await create.mutateAsync(createBody(form, miles));
        client.setQueryData(fuelKeys.one(fid, created.id), created);
        accept(form);
        // Who may not read fillings goes back to the unit page (a driver, docs/product.md).
        setLeaveTo(
          readsFillings
            ? `/fuelfilling/${created.id}${fromUnit ? '?from=unit' : ''}`
            : `/unit/${created.uid}?fuel=saved`,
        );
      } else {
        const next = await update.mutateAsync({ id: filling.id, body: updateBody(form, initial, miles) });
        client.setQueryData(fuelKeys.one(fid, next.id), next);
        accept(formFromFilling(next, tz, miles), next.updated);
        setSaved(true);
      }
      // A fuel type typed in joins the library's fuel tab (server addFuelTypes).
      void client.invalidateQueries({ queryKey: queryKeys.collection(fid, 'lineitem') });
    } catch (err) {
      showRefusal(err);
    } finally {
      setBusy(false);
    }
  };

  const deleteFilling = () => {
    if (!filling) return;
    remove.mutate(filling.id, {
      onSuccess: () => onDeleted(back),
      onError: (err) => {
        setConfirmDelete(false);
        setFormError(t('fuel.deleteFailed', { reason: err instanceof ApiError ? err.reason : String(err) }));
      },
    });
  };

  const volumeUnit = volumeLabel(lang, fleet?.fm);
  const distanceUnit = unitLabel(lang, miles ? 'mile' : 'kilometer');
  const computed = computedTotal(form.volume, form.price);
  const computedText = computed === undefined ? '' : formatNumber(fromThousandths(computed));
  const manual = form.manualCost.trim() !== '';
  const disabled = busy || !editable;
  const unit = form.uid === null ? undefined : unitById.get(Number(form.uid));
  const counter = unit ? mileageText(unit.cnm, miles) : '';
  // A filling larger than the unit's tank is flagged as it is typed (docs/product.md "The vehicle profile").
  const overTank = unit ? tankExceeded(form.volume, filling?.fm ?? fleet?.fm ?? 1, unit.vp) : null;
  // A unit counting engine hours has no per-distance consumption (docs/product.md "Consumption of machines").
  const perDistance = countingBasis(auth?.unit_types.find((x) => x.id === unit?.ut)?.n) === 'distance';

  return (
    <Stack gap="md" pb={80}>
      <Title order={1} size="h2">
        {isNew ? t('fuel.new') : t('screen.fuelfilling')}
      </Title>
      {!editable && (
        <Alert color="gray" py="xs" data-testid="fuel-readonly">
          {t('fuel.readonly')}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
        <Select
          label={t('objects.kindUnit')}
          options={unitOptions}
          value={form.uid}
          allowDeselect={false}
          withAsterisk={editable}
          disabled={disabled}
          onChange={(v) => {
            if (v === null) return;
            // Only a new filling takes the chosen unit's counter (PRODUCT.md "Fuel fillings").
            if (!isNew) {
              change({ uid: v });
              return;
            }
            const before = form.uid === null ? undefined : unitById.get(Number(form.uid));
            const next = withUnit(form, v, unitById.get(Number(v)), before, miles);
            change({ uid: next.uid, mileage: next.mileage });
          }}
          error={errors.uid}
          data-testid="fuel-unit"
        />
        <CreatableSelect
          label={t('fuel.fuelType')}
          options={fuelOptions}
          value={form.fuelType.trim() ? form.fuelType.trim().toLowerCase() : null}
          onChange={(v) => {
            if (v === null) return;
            const item = fuelItems.find((i) => i.n.toLowerCase() === v);
            const before = fuelItems.find((i) => i.n.toLowerCase() === form.fuelType.trim().toLowerCase());
            const label = fuelOptions.find((o) => o.value === v)?.label ?? v;
            const next = withFuelType(form, item, label, before);
            change({ fuelType: next.fuelType, price: next.price });
          }}
          onCreate={(text) => change({ fuelType: text.slice(0, FUEL_TEXT_MAX) })}
          placeholder={t('fuel.fuelTypePlaceholder')}
          disabled={disabled}
          error={errors.fuelType}
          data-testid="fuel-type"
        />
        <DatePicker
          label={t('fuel.fillDate')}
          value={form.date}
          onChange={(date) => change({ date })}
          dateFormat={dateFormat}
          withAsterisk={editable}
          disabled={disabled}
          error={errors.date}
          data-testid="fuel-date"
        />
        <TimePicker
          label={t('fuel.time')}
          value={form.time}
          onChange={(time) => change({ time })}
          stepMinutes={15}
          withAsterisk={editable}
          disabled={disabled}
          error={errors.time}
          data-testid="fuel-time"
        />
        <NumericInput
          label={t('fuel.volumeIn', { unit: volumeUnit })}
          value={form.volume}
          precision={3}
          maxIntegerLength={integerDigits(DECIMAL_MAX)}
          onChange={(volume) => change({ volume })}
          withAsterisk={editable}
          disabled={disabled}
          error={errors.volume}
          data-testid="fuel-volume"
        />
        {overTank && (
          <Text size="sm" c="orange" role="status" data-testid="fuel-over-tank">
            {t('vehicle.overTank', {
              capacity: formatNumber(overTank.capacity),
              unit: volumeLabel(lang, overTank.unit),
            })}
          </Text>
        )}
        <NumericInput
          label={t('fuel.priceIn', { unit: `${currency ? `${currency}/` : ''}${volumeUnit}` })}
          value={form.price}
          precision={3}
          maxIntegerLength={integerDigits(DECIMAL_MAX)}
          onChange={(price) => change({ price })}
          disabled={disabled}
          error={errors.price}
          data-testid="fuel-price"
        />
        <NumericInput
          label={t('objects.totalCost')}
          value={form.manualCost}
          placeholder={computedText}
          precision={3}
          maxIntegerLength={integerDigits(DECIMAL_MAX)}
          onChange={(manualCost) => change({ manualCost })}
          disabled={disabled}
          error={errors.manualCost}
          description={
            manual
              ? t('fuel.totalManual', { computed: computedText || '-' })
              : t('fuel.totalComputed', {
                  total: formatMoney(fromThousandths(computed ?? 0), currency, { locale: lang }),
                })
          }
          rightSection={
            <Text size="sm" c="dimmed">
              {currency}
            </Text>
          }
          rightSectionWidth={currency ? 56 : undefined}
          data-testid="fuel-total"
        />
        <NumericInput
          label={t('fuel.mileageIn', { unit: distanceUnit })}
          value={form.mileage}
          precision={3}
          maxIntegerLength={integerDigits(COUNTER_MAX)}
          onChange={(mileage) => change({ mileage })}
          disabled={disabled}
          error={errors.mileage}
          description={
            counter
              ? t('fuel.counterNow', { value: `${formatWhole(Number(counter), lang)} ${distanceUnit}` })
              : undefined
          }
          data-testid="fuel-mileage"
        />
      </SimpleGrid>
      <Checkbox
        label={t('fuel.fullTank')}
        checked={form.full}
        onChange={(e) => change({ full: e.currentTarget.checked })}
        disabled={disabled}
        data-testid="fuel-full"
      />
      {filling && filling.consumption !== null && perDistance && (
        <Text size="sm" data-testid="fuel-consumption">
          {t('fuel.consumption')}: {formatNumber(filling.consumption, { decimals: 1, locale: lang })}{' '}
          {consumptionLabel(lang, fleet?.ms, fleet?.fm)}
        </Text>
      )}
      <TextInput
        label={t('fuel.station')}
        value={form.station}
        maxLength={FUEL_TEXT_MAX}
        onChange={(e) => change({ station: e.currentTarget.value })}
        disabled={disabled}
        error={errors.station}
        data-testid="fuel-station"
      />
      <Textarea
        label={t('objects.description')}
        value={form.description}
        maxLength={Limits.descriptionMax}
        autosize
        minRows={2}
        maxRows={8}
        onChange={(e) => change({ description: e.currentTarget.value })}
        disabled={disabled}
        error={errors.description}
        data-testid="fuel-description"
      />
      <Title order={2} size="h4">
        {t('customFields.title')}
      </Title>
      {fields.isPending ? (
        <Text c="dimmed">{t('common.loading')}</Text>
      ) : fields.isError ? (
        <Text c="red">{t('customFields.loadFailed')}</Text>
      ) : (
        <CustomFieldsEditor
          ownerType="f"
          fields={fields.data}
          values={form.cf}
          onChange={(cf) => change({ cf })}
          readOnly={!editable}
          disabled={busy}
          errors={cfErrors}
        />
      )}
      <Title order={2} size="h4">
        {t('fuel.attachments')}
      </Title>
      {filling ? (
        <FuelAttachments
          fid={fid}
          fillingId={filling.id}
          editable={editable}
          dateFormat={dateFormat}
          timeFormat={timeFormat}
        />
      ) : (
        <Text c="dimmed" size="sm">
          {t('fuel.attachAfterSave')}
        </Text>
      )}
      {formError && (
        <Alert color="red" role="alert" py="xs" data-testid="fuel-error">
          {formError}
        </Alert>
      )}
      <Group
        gap="sm"
        py="sm"
        wrap="wrap"
        style={{
          position: 'sticky',
          bottom: 0,
          background: 'var(--mantine-color-body)',
          borderTop: '1px solid var(--mantine-color-default-border)',
          zIndex: 2,
        }}
      >
        {editable && (
          <Button
            onClick={() => void save()}
            loading={busy}
            disabled={!isNew && !dirty}
            data-testid="fuel-save"
          >
            {t('common.save')}
          </Button>
        )}
        <Button variant="default" onClick={() => navigate(back)} disabled={busy} data-testid="fuel-back">
          {editable ? t('common.cancel') : t('fuel.back')}
        </Button>
        {filling && canDelete && (
          <Button
            variant="light"
            color="red"
            onClick={() => setConfirmDelete(true)}
            disabled={busy}
            data-testid="fuel-delete"
          >
            {t('common.delete')}
          </Button>
        )}
        {saved && !dirty && (
          <Text size="sm" c="teal" role="status" data-testid="fuel-saved">
            {t('serviceEditor.saved')}
          </Text>
        )}
      </Group>
      <ConfirmDialog
        opened={confirmDelete}
        title={t('fuel.deleteTitle')}
        text={t('fuel.deleteConfirm')}
        busy={remove.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={deleteFilling}
      />
      {leaveWarning}
    </Stack>
  );
}
