import type { ServiceWire, StatisticsFleetWire, UnitWire } from '@fleetkeep/core';
import { Anchor, Box, Group, Progress, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Chart } from '../../components/Chart.tsx';
import { STATUS_COLOR } from '../../components/ServiceStatus.tsx';
import {
  costPerDistance,
  costSeries,
  objectCounts,
  overdueServices,
  perDistanceText,
  type StatusCounts,
  staleUnits,
  topUnits,
} from './rules.ts';
import type { useFleetFormat } from './useDashboard.ts';

export type Format = ReturnType<typeof useFleetFormat>;

/** Mantine's palette (colour 6) for the charts, matching the status badges. */
const COLORS: Record<string, string> = {
  blue: '#228be6',
  red: '#fa5252',
  orange: '#fd7e14',
  teal: '#12b886',
  grape: '#be4bdb',
};
const SERVICES_COLOR = COLORS.blue;
const FUEL_COLOR = COLORS.teal;

/** A figure with its label. */
export function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box data-testid={testId} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={600} data-testid={`${testId}-value`} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Box>
  );
}

/** Services by status: a donut (due, overdue, in progress) with the total in its centre. */
export function StatusSection({ counts, fmt }: { counts: StatusCounts; fmt: Format }) {
  const { t } = useTranslation();
  const parts = [
    { key: 'due', value: counts.due, color: COLORS[STATUS_COLOR.due] },
    { key: 'overdue', value: counts.overdue, color: COLORS[STATUS_COLOR.overdue] },
    { key: 'inProgress', value: counts.inProgress, color: COLORS[STATUS_COLOR.inProgress] },
  ] as const;
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animationDuration: 300,
      tooltip: { trigger: 'item' },
      series: [
        {
          type: 'pie',
          radius: ['58%', '85%'],
          avoidLabelOverlap: false,
          label: { show: false },
          data:
            counts.total === 0
              ? [{ name: '', value: 1, itemStyle: { color: '#dee2e6' }, tooltip: { show: false } }]
              : parts.map((p) => ({
                  name: t(`serviceStatus.${p.key}`),
                  value: p.value,
                  itemStyle: { color: p.color },
                })),
        },
      ],
    }),
    [counts, t],
  );
  return (
    <Group gap="lg" wrap="nowrap" align="center">
      <Box pos="relative" style={{ width: 150, flex: '0 0 150px' }}>
        <Chart
          option={option}
          height={150}
          label={t('dashboard.section_status')}
          testId="dash-status-chart"
        />
        <Stack
          gap={0}
          align="center"
          justify="center"
          pos="absolute"
          inset={0}
          style={{ pointerEvents: 'none' }}
        >
          <Text fw={700} size="xl" data-testid="dash-status-total">
            {fmt.number(counts.total)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('dashboard.total')}
          </Text>
        </Stack>
      </Box>
      <Stack gap={6} style={{ minWidth: 0 }}>
        {parts.map((p) => (
          <Group key={p.key} gap="xs" wrap="nowrap" data-testid={`dash-status-${p.key}`}>
            <Box w={10} h={10} style={{ borderRadius: 5, background: p.color, flex: 'none' }} />
            <Text size="sm">{t(`serviceStatus.${p.key}`)}</Text>
            <Text size="sm" fw={600} data-testid={`dash-status-${p.key}-value`}>
              {fmt.number(p.value)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Group>
  );
}

/** Objects active vs in service (units, drivers, trailers). */
export function ObjectsSection({
  units,
  drivers,
  trailers,
  fmt,
}: {
  units: readonly { ins: number }[];
  drivers: readonly { ins: number }[];
  trailers: readonly { ins: number }[];
  fmt: Format;
}) {
  const { t } = useTranslation();
  const rows = [
    { key: 'units', counts: objectCounts(units) },
    { key: 'drivers', counts: objectCounts(drivers) },
    { key: 'trailers', counts: objectCounts(trailers) },
  ];
  return (
    <Table withRowBorders={false} verticalSpacing={4} horizontalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th />
          <Table.Th ta="right">{t('dashboard.active')}</Table.Th>
          <Table.Th ta="right">{t('dashboard.inService')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key} data-testid={`dash-objects-${r.key}`}>
            <Table.Td>{t(`dashboard.${r.key}`)}</Table.Td>
            <Table.Td ta="right" fw={600} data-testid={`dash-objects-${r.key}-active`}>
              {fmt.number(r.counts.active)}
            </Table.Td>
            <Table.Td ta="right" fw={600} data-testid={`dash-objects-${r.key}-inservice`}>
              {fmt.number(r.counts.inService)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The number of intervals of the fleet. */
export function IntervalsSection({ count, fmt }: { count: number; fmt: Format }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text fz={36} fw={700} lh={1} data-testid="dash-intervals-value">
        {fmt.number(count)}
      </Text>
      <Anchor component={Link} to="/intervals" size="sm">
        {t('menu.intervals')}
      </Anchor>
    </Stack>
  );
}

/** Total cost split into services and fuel. */
export function CostsSection({ stats, fmt }: { stats: StatisticsFleetWire; fmt: Format }) {
  const { t } = useTranslation();
  const share = (v: number) => (stats.total_cost > 0 ? (v / stats.total_cost) * 100 : 0);
  return (
    <Stack gap="sm">
      <Figure label={t('objects.totalCost')} value={fmt.money(stats.total_cost)} testId="dash-total-cost" />
      <Progress.Root size="lg" aria-hidden>
        <Progress.Section value={share(stats.services_cost)} color={SERVICES_COLOR} />
        <Progress.Section value={share(stats.fuel_cost)} color={FUEL_COLOR} />
      </Progress.Root>
      <SimpleGrid cols={2} spacing="sm">
        <Figure
          label={t('objects.serviceCost')}
          value={fmt.money(stats.services_cost)}
          testId="dash-services-cost"
        />
        <Figure label={t('objects.fuelCost')} value={fmt.money(stats.fuel_cost)} testId="dash-fuel-cost" />
      </SimpleGrid>
    </Stack>
  );
}

/** Cost per 1 km or mile over the distance driven in the period: the fleet and its top units by cost. */
export function PerDistanceSection({
  stats,
  unitName,
  fmt,
}: {
  stats: StatisticsFleetWire;
  unitName: (uid: number) => string;
  fmt: Format;
}) {
  const { t } = useTranslation();
  const money3 = (v: number) => fmt.money(v, 3);
  const fleet = costPerDistance(stats.total_cost, stats.mileage, fmt.miles);
  const top = topUnits(stats.units, fmt.miles);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2} spacing="sm">
        <Figure
          label={t('objects.costPerDistance', { unit: fmt.distanceUnit })}
          value={perDistanceText(fleet, money3)}
          testId="dash-per-distance"
        />
        <Figure
          label={t('statistics.periodMileage')}
          value={fmt.distance(stats.mileage)}
          testId="dash-period-mileage"
        />
      </SimpleGrid>
      {top.length > 0 && (
        <Table
          withRowBorders={false}
          verticalSpacing={2}
          horizontalSpacing="xs"
          data-testid="dash-per-distance-units"
        >
          <Table.Tbody>
            {top.map((u) => (
              <Table.Tr key={u.uid}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Anchor component={Link} to={`/unit/${u.uid}`} size="sm">
                    {unitName(u.uid)}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {perDistanceText(u.perDistance, money3)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** Service and fuel cost over the period, stacked per day (per week for long periods). */
export function CostChartSection({ stats, fmt }: { stats: StatisticsFleetWire; fmt: Format }) {
  const { t } = useTranslation();
  const series = useMemo(() => costSeries(stats.days, stats.from, stats.to), [stats]);
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animationDuration: 300,
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v: unknown) => (typeof v === 'number' ? fmt.money(v) : String(v)),
      },
      legend: { bottom: 0 },
      grid: { left: 8, right: 8, top: 12, bottom: 36, containLabel: true },
      xAxis: { type: 'category', data: series.starts.map(fmt.day) },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => fmt.shortMoney(v) } },
      series: [
        {
          name: t('dashboard.services'),
          type: 'bar',
          stack: 'cost',
          data: series.services,
          itemStyle: { color: SERVICES_COLOR },
        },
        {
          name: t('dashboard.fuel'),
          type: 'bar',
          stack: 'cost',
          data: series.fuel,
          itemStyle: { color: FUEL_COLOR },
        },
      ],
    }),
    [series, fmt, t],
  );
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" data-testid="dash-chart-step">
        {t(series.step === 'week' ? 'dashboard.perWeek' : 'dashboard.perDay')}
      </Text>
      <Chart option={option} height={260} label={t('dashboard.section_costChart')} testId="dash-cost-chart" />
    </Stack>
  );
}

/** The units with the highest costs of the period (services + fuel). */
export function TopUnitsSection({
  stats,
  unitName,
  fmt,
}: {
  stats: StatisticsFleetWire;
  unitName: (uid: number) => string;
  fmt: Format;
}) {
  const { t } = useTranslation();
  const top = topUnits(stats.units, fmt.miles);
  if (top.length === 0) return <Text c="dimmed">{t('dashboard.noData')}</Text>;
  const most = top[0]?.total ?? 1;
  return (
    <Stack gap="xs" data-testid="dash-top-units">
      {top.map((u) => (
        <Box key={u.uid} data-testid="dash-top-unit">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Anchor component={Link} to={`/unit/${u.uid}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {unitName(u.uid)}
            </Anchor>
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {fmt.money(u.total)}
            </Text>
          </Group>
          <Progress.Root size="sm" aria-hidden>
            <Progress.Section value={(u.services / most) * 100} color={SERVICES_COLOR} />
            <Progress.Section value={(u.fuel / most) * 100} color={FUEL_COLOR} />
          </Progress.Root>
        </Box>
      ))}
    </Stack>
  );
}

/** Overdue services and units whose counters stopped (no message for a day). */
export function AttentionSection({
  services,
  units,
  objectName,
  fmt,
}: {
  services: readonly ServiceWire[];
  units: readonly Pick<UnitWire, 'id' | 'nm' | 'lmsg'>[];
  objectName: (s: Pick<ServiceWire, 't' | 'uid'>) => string;
  fmt: Format;
}) {
  const { t } = useTranslation();
  const overdue = overdueServices(services);
  const stale = staleUnits(units, Date.now() / 1000);
  if (overdue.length === 0 && stale.length === 0) {
    return <Text c="dimmed">{t('dashboard.allClear')}</Text>;
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Stack gap={4} data-testid="dash-overdue">
        <Text fw={600} size="sm">
          {t('dashboard.overdueServices')} ({fmt.number(overdue.length)})
        </Text>
        {overdue.slice(0, 10).map((s) => (
          <Text key={s.id} size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Anchor component={Link} to={`/service/${s.id}`} c="red">
              {s.n}
            </Anchor>{' '}
            <Text span c="dimmed" size="sm">
              {objectName(s)}
            </Text>
          </Text>
        ))}
        {overdue.length > 10 && (
          <Anchor component={Link} to="/services?st=overdue" size="sm">
            {t('dashboard.allOverdue')}
          </Anchor>
        )}
      </Stack>
      <Stack gap={4} data-testid="dash-stale">
        <Text fw={600} size="sm">
          {t('dashboard.stoppedUnits')} ({fmt.number(stale.length)})
        </Text>
        {stale.slice(0, 10).map((u) => (
          <Text key={u.id} size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Anchor component={Link} to={`/unit/${u.id}`}>
              {u.nm}
            </Anchor>{' '}
            <Text span c="dimmed" size="sm">
              {u.lmsg ? fmt.date(u.lmsg.t) : ''}
            </Text>
          </Text>
        ))}
      </Stack>
    </SimpleGrid>
  );
}
