import {
  countingBasis,
  type FuelFillingWire,
  formatFleetDateTime,
  formatMoney,
  formatMoneyAmount,
  formatNumber,
  formatWhole,
  routes,
  tagChoices,
  unitLabel,
  unitSearchText,
} from '@fleetkeep/core';
import { Alert, Anchor, Button, FileButton, Group, Menu, Stack, Text, Title } from '@mantine/core';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PeriodFields } from '../../components/PeriodFields.tsx';
import { Select } from '../../components/Select.tsx';
import { dayjsLocale } from '../../i18n/index.ts';
import { ApiError } from '../../lib/api.ts';
import { kmToDisplay } from '../../lib/distance.ts';
import { useUnits } from '../../lib/fleetData.ts';
import { consumptionLabel, fuelTotals, useFuelFillings, volumeLabel } from '../../lib/fuel.ts';
import { naturalCollator } from '../../lib/naturalSort.ts';
import { decodePeriod, encodePeriod, type Period, periodError } from '../../lib/periods.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { usePermissions } from '../../lib/useCan.ts';
import { useDeleteFilling } from './api.ts';
import { decodeTag, decodeUnit, filterByTag, filterByUnit, fleetToday } from './rules.ts';

/**
 * Spec §2 /fuelfillings: the fleet's fuel fillings of a period (spec §9 time ranges, ending today in the
 * fleet zone, or chosen by hand) for all units or one, in the one virtualised DataTable with sortable
 * columns, search, CSV export and the totals of volume and cost of the rows shown (exact sums). "New fuel
 * filling" needs manageFuelFilling; a row's delete needs deleteFuelfilling (spec §6) and asks first.
 */
export default function FuelFillingsScreen() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const can = usePermissions();
  const navigate = useNavigate();
  const tz = fleet?.tz ?? 0;
  const miles = fleet?.ms === 1;
  const currency = fleet?.cur ?? '';
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const timeFormat = auth?.model.s.timeFormat || 'HH:mm';
  const lang = i18n.language;
  const [params, patchParams] = useUrlParams();
  const today = fleetToday(tz, Math.floor(Date.now() / 1000));
  const period = decodePeriod(params, today);
  const badPeriod = periodError(period.from, period.to);
  const unitFilter = decodeUnit(params);
  const tagFilter = decodeTag(params);

  const fillings = useFuelFillings(badPeriod ? null : fid, period.from, period.to);
  const units = useUnits(fid);
  const remove = useDeleteFilling(fid);
  const [pending, setPending] = useState<FuelFillingWire | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const unitName = useMemo(() => new Map((units.data ?? []).map((u) => [u.id, u.nm])), [units.data]);
  const unitTypes = auth?.unit_types;
  const unitType = useMemo(
    () => new Map((units.data ?? []).map((u) => [u.id, unitTypes?.find((x) => x.id === u.ut)?.n ?? null])),
    [units.data, unitTypes],
  );
  const unitOptions = useMemo(
    () =>
      [...(units.data ?? [])]
        .sort((a, b) => naturalCollator.compare(a.nm, b.nm))
        .map((u) => ({ value: String(u.id), label: u.nm })),
    [units.data],
  );
  // The units' tags and plates (docs/product.md "The vehicle profile"): the tag filter, the search.
  const unitTags = useMemo(
    () => new Map((units.data ?? []).map((u) => [u.id, u.vp?.tg ?? []])),
    [units.data],
  );
  const unitSearch = useMemo(
    () => new Map((units.data ?? []).map((u) => [u.id, unitSearchText(u.vp)])),
    [units.data],
  );
  const tags = useMemo(() => tagChoices([...unitTags.values()]), [unitTags]);
  const rows = useMemo(
    () => filterByTag(filterByUnit(fillings.data ?? [], unitFilter), tagFilter, unitTags),
    [fillings.data, unitFilter, tagFilter, unitTags],
  );

  // The row menu reads the latest state through a ref, so the columns stay one object between renders.
  const onDelete = useRef((f: FuelFillingWire) => setPending(f));
  const canManage = can(routes.fuel.create);
  const canDelete = can(routes.fuel.remove);
  const locale = dayjsLocale();
  const volumeUnit = volumeLabel(lang, fleet?.fm);
  const distanceUnit = unitLabel(lang, miles ? 'mile' : 'kilometer');
  const perUnit = consumptionLabel(lang, fleet?.ms, fleet?.fm);

  const columns = useMemo((): DataColumn<FuelFillingWire>[] => {
    const name = (f: FuelFillingWire) => unitName.get(f.uid) ?? `#${f.uid}`;
    // Shown in the user's locale; the CSV keeps plain numbers (docs/product.md "Numbers, money and times").
    const num = (v: number | null) => (v === null ? '' : formatNumber(v, { locale: lang }));
    const perHour = (f: FuelFillingWire) => countingBasis(unitType.get(f.uid)) === 'hours';
    return [
      {
        id: 'date',
        header: t('fuel.date'),
        value: (f) => f.date,
        text: (f) => formatFleetDateTime(f.date, tz, dateFormat, timeFormat, locale),
        cell: (f) => (
          <Anchor component={Link} to={`/fuelfilling/${f.id}`} style={{ whiteSpace: 'nowrap' }}>
            {formatFleetDateTime(f.date, tz, dateFormat, timeFormat, locale)}
          </Anchor>
        ),
        // At phone width each filling is a card (docs/product.md "Phone"): when, which unit, how much.
        phone: 'title',
      },
      {
        id: 'unit',
        header: t('objects.kindUnit'),
        value: name,
        // The search finds a unit's fillings by its plate or VIN too.
        text: (f) => `${name(f)} ${unitSearch.get(f.uid) ?? ''}`.trim(),
        csv: name,
        cell: (f) => (
          <Anchor component={Link} to={`/unit/${f.uid}?tab=fuel`} style={{ whiteSpace: 'nowrap' }}>
            {name(f)}
          </Anchor>
        ),
        phone: 'detail',
      },
      { id: 'fuelType', header: t('fuel.fuelType'), value: (f) => f.fuel_type, phone: 'detail' },
      {
        id: 'volume',
        header: `${t('fuel.volume')}, ${volumeUnit}`,
        value: (f) => f.volume,
        text: (f) => num(f.volume),
        csv: (f) => f.volume,
        phone: 'detail',
        phoneCell: (f) => `${num(f.volume)} ${volumeUnit}`,
      },
      {
        id: 'price',
        header: `${t('fuel.price')}${currency ? `, ${currency}` : ''}`,
        value: (f) => f.price,
        text: (f) => num(f.price),
        csv: (f) => f.price,
      },
      {
        id: 'total',
        header: `${t('fuel.total')}${currency ? `, ${currency}` : ''}`,
        value: (f) => f.total_cost,
        text: (f) => (currency ? formatMoneyAmount(f.total_cost, currency, lang) : num(f.total_cost)),
        csv: (f) => f.total_cost,
        phone: 'detail',
        phoneCell: (f) => (
          <Text span size="sm" fw={500}>
            {currency ? formatMoney(f.total_cost, currency, { locale: lang }) : num(f.total_cost)}
          </Text>
        ),
      },
      {
        id: 'mileage',
        header: `${t('fuel.mileage')}, ${distanceUnit}`,
        value: (f) => f.mileage,
        text: (f) => (f.mileage === null ? '' : formatWhole(kmToDisplay(f.mileage, miles), lang)),
        csv: (f) => (f.mileage === null ? null : kmToDisplay(f.mileage, miles)),
        phone: 'detail',
        phoneCell: (f) =>
          f.mileage === null ? null : `${formatWhole(kmToDisplay(f.mileage, miles), lang)} ${distanceUnit}`,
      },
      {
        id: 'full',
        header: t('fuel.fullTank'),
        value: (f) => f.full,
        text: (f) => (f.full === 1 ? t('fuel.full') : t('fuel.partial')),
      },
      {
        id: 'consumption',
        header: `${t('fuel.consumption')}, ${perUnit}`,
        // Units counting engine hours have no per-distance consumption (docs/product.md "Consumption of
        // machines"): their fillings record no engine hours, the fuel report shows their L/h.
        value: (f) => (perHour(f) ? null : f.consumption),
        text: (f) =>
          perHour(f) || f.consumption === null
            ? ''
            : formatNumber(f.consumption, { decimals: 1, locale: lang }),
        csv: (f) => (perHour(f) ? null : f.consumption),
      },
      { id: 'station', header: t('fuel.station'), value: (f) => f.station },
      {
        id: 'actions',
        header: t('services.actions'),
        hiddenHeader: true,
        phone: 'end',
        value: () => null,
        sortable: false,
        searchable: false,
        exported: false,
        cell: (f) =>
          canManage || canDelete ? (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <IconButton
                  aria-label={t('fuel.rowMenu', { name: name(f) })}
                  data-testid={`fuel-menu-${f.id}`}
                >
                  <span aria-hidden="true">⋯</span>
                </IconButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component={Link} to={`/fuelfilling/${f.id}`}>
                  {canManage ? t('services.actionEdit') : t('serviceEditor.open')}
                </Menu.Item>
                {canDelete && (
                  <Menu.Item color="red" onClick={() => onDelete.current(f)}>
                    {t('common.delete')}
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          ) : null,
      },
    ];
  }, [
    t,
    tz,
    dateFormat,
    timeFormat,
    locale,
    lang,
    unitName,
    unitType,
    unitSearch,
    volumeUnit,
    currency,
    distanceUnit,
    miles,
    perUnit,
    canManage,
    canDelete,
  ]);

  if (!auth || fid === null) return null;

  const setPeriod = (next: Period) => patchParams((p) => encodePeriod(p, next));
  const setUnit = (value: string | null) =>
    patchParams((p) => {
      if (value) p.set('unit', value);
      else p.delete('unit');
      return p;
    });

  const setTag = (value: string | null) =>
    patchParams((p) => {
      if (value) p.set('tag', value);
      else p.delete('tag');
      return p;
    });

  const toolbar = (
    <>
      <PeriodFields
        period={period}
        today={today}
        dateFormat={dateFormat}
        onChange={setPeriod}
        testIdPrefix="fuel"
      />
      <Select
        label={t('objects.kindUnit')}
        placeholder={t('fuel.allUnits')}
        options={unitOptions}
        value={unitFilter === null ? null : String(unitFilter)}
        clearable
        onChange={setUnit}
        style={{ flex: '1 1 12rem', maxWidth: '18rem' }}
        data-testid="fuel-unit-filter"
      />
      {tags.length > 0 && (
        <Select
          label={t('vehicle.tagFilter')}
          options={tags.map((tag) => ({ value: tag, label: tag }))}
          value={tagFilter}
          clearable
          onChange={setTag}
          style={{ flex: '0 1 10rem' }}
          data-testid="fuel-tag-filter"
        />
      )}
    </>
  );

  const summary = (shown: readonly FuelFillingWire[]) => {
    const totals = fuelTotals(shown);
    return (
      <Group gap="lg" mt={4} wrap="wrap" data-testid="fuel-totals">
        <Text size="sm" fw={600}>
          {t('fuel.totalVolume')}:{' '}
          <span data-testid="fuel-total-volume">{`${formatNumber(totals.volume, { locale: lang })} ${volumeUnit}`}</span>
        </Text>
        <Text size="sm" fw={600}>
          {t('objects.totalCost')}:{' '}
          <span data-testid="fuel-total-cost">{formatMoney(totals.cost, currency, { locale: lang })}</span>
        </Text>
      </Group>
    );
  };

  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('menu.fuelfillings')}
        </Title>
        {canManage && (
          <FileButton
            accept=".csv,.txt,.xlsx"
            onChange={(file) => file && navigate('/fuelfillings/import', { state: { file } })}
          >
            {(props) => (
              <Button variant="default" data-testid="import-open" {...props}>
                {t('imports.action')}
              </Button>
            )}
          </FileButton>
        )}
        {canManage && (
          <Button
            component={Link}
            to={unitFilter === null ? '/fuelfilling/new' : `/fuelfilling/new?unit=${unitFilter}`}
            data-testid="fuel-new"
          >
            {t('fuel.new')}
          </Button>
        )}
      </Group>
      {failure && (
        <Alert
          color="red"
          role="alert"
          withCloseButton
          closeButtonLabel={t('controls.clear')}
          onClose={() => setFailure(null)}
          data-testid="fuel-list-error"
        >
          {failure}
        </Alert>
      )}
      {fillings.isError ? (
        <Alert color="red" role="alert">
          {fillings.error instanceof ApiError ? fillings.error.reason : t('fuel.loadFailed')}
        </Alert>
      ) : fillings.isPending && !badPeriod ? (
        <Loading />
      ) : (
        <DataTable
          data={badPeriod ? [] : rows}
          columns={columns}
          getRowId={(f) => String(f.id)}
          csvName={`fuel-fillings-${period.from}-${period.to}`}
          emptyText={t('fuel.empty')}
          minWidth={1100}
          toolbar={toolbar}
          summary={summary}
          data-testid="fuel-fillings"
        />
      )}
      <ConfirmDialog
        opened={pending !== null}
        title={t('fuel.deleteTitle')}
        text={t('fuel.deleteConfirm')}
        busy={remove.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (!pending) return;
          setFailure(null);
          remove.mutate(pending.id, {
            onSuccess: () => setPending(null),
            onError: (err) => {
              setPending(null);
              setFailure(
                t('fuel.deleteFailed', { reason: err instanceof ApiError ? err.reason : String(err) }),
              );
            },
          });
        }}
      />
    </Stack>
  );
}
