import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Loading.tsx';
import { useArchivedServices } from '../../lib/services.ts';
import { useUnitStatistics } from './api.ts';
import { PeriodPicker } from './PeriodPicker.tsx';
import { closedCost, KIND_INFO, periodIndicators, servicesOf } from './rules.ts';
import { type PeriodTabProps, usePeriodTab } from './useLabels.ts';

function Indicator({
  label,
  value,
  testId,
  hint,
}: {
  label: string;
  value: string;
  testId: string;
  hint?: string;
}) {
  return (
    <Paper withBorder p="sm" radius="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={600} data-testid={`${testId}-value`} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" data-testid={`${testId}-hint`}>
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/**
 * The general tab (PRODUCT.md "Unit page indicators"): counters of a unit, the costs of the period
 * (closed services; fuel comes with the fuel fillings, 0 until then) and, for units, the distance and
 * engine hours of the period and the cost per 1 km or mile over that distance — all from the unit
 * statistics call; drivers and trailers take their costs from the archive. The unit's map comes from the
 * route (app/routes.tsx): the map is a feature of its own.
 */
export function GeneralTab({ object, period, onPeriod, map }: PeriodTabProps & { map?: ReactNode }) {
  const { t } = useTranslation();
  const { fid, labels, range } = usePeriodTab(period);
  const unit = object.unit;
  const stats = useUnitStatistics(fid, unit, range.from, range.to);
  // Drivers and trailers take their costs from the archive; units from their statistics.
  const archive = useArchivedServices(unit === null ? fid : null, range.from, range.to);

  const figures = stats.data ? periodIndicators(stats.data, labels.miles) : null;
  const services = unit
    ? (figures?.services ?? null)
    : archive.data
      ? closedCost(servicesOf(archive.data, KIND_INFO[object.kind].t, object.id))
      : null;
  const fuel = unit ? (figures?.fuel ?? null) : 0;
  const total = unit ? (figures?.total ?? null) : services;
  const failed = unit ? stats.isError : archive.isError;
  const money = (v: number | null) => (v === null ? '-' : labels.money(v));

  return (
    <Stack>
      {unit && (
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
          <Indicator
            label={t('objects.totalMileage')}
            value={labels.distance(unit.cnm ?? 0)}
            testId="ind-total-mileage"
          />
          <Indicator
            label={t('objects.actualMileage')}
            value={labels.distance(unit.acnm ?? 0)}
            hint={t('objects.actualHint')}
            testId="ind-actual-mileage"
          />
          <Indicator
            label={t('objects.totalEngineHours')}
            value={labels.engineHours(unit.cneh ?? 0)}
            testId="ind-total-engine-hours"
          />
          <Indicator
            label={t('objects.actualEngineHours')}
            value={labels.engineHours(unit.aceh ?? 0)}
            hint={t('objects.actualHint')}
            testId="ind-actual-engine-hours"
          />
        </SimpleGrid>
      )}
      <PeriodPicker value={period} onChange={onPeriod} />
      {failed ? (
        <Text c="red" role="alert">
          {t('objects.loadFailed')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, md: unit ? 3 : 4 }} spacing="sm">
          {unit && (
            <Indicator
              label={t('statistics.periodMileage')}
              value={figures ? labels.distance(figures.distanceKm) : '-'}
              testId="ind-period-mileage"
            />
          )}
          {unit && (
            <Indicator
              label={t('statistics.periodEngineHours')}
              value={figures ? labels.engineHours(figures.engineHours) : '-'}
              testId="ind-period-engine-hours"
            />
          )}
          <Indicator label={t('objects.totalCost')} value={money(total)} testId="ind-total-cost" />
          <Indicator label={t('objects.serviceCost')} value={money(services)} testId="ind-service-cost" />
          <Indicator label={t('objects.fuelCost')} value={money(fuel)} testId="ind-fuel-cost" />
          {unit && (
            <Indicator
              label={t('objects.costPerDistance', { unit: labels.distanceUnit })}
              value={figures?.perDistance == null ? '-' : labels.money(figures.perDistance, 3)}
              testId="ind-cost-per-distance"
            />
          )}
        </SimpleGrid>
      )}
      {unit && map && <Suspense fallback={<Loading />}>{map}</Suspense>}
    </Stack>
  );
}
