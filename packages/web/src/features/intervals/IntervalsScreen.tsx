import { formatNumber, type IntervalTimeUnit, type IntervalWire, routes, unitLabel } from '@fleetkeep/core';
import { Anchor, Button, FileButton, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Select } from '../../components/Select.tsx';
import { UnitTypeFilter } from '../../components/UnitTypeFilter.tsx';
import { useIntervals, useUnits } from '../../lib/fleetData.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  decodeFilters,
  encodeFilters,
  filterIntervals,
  frequencySummary,
  KINDS,
  type Kind,
  noticeSummary,
  type SummaryLabels,
} from './rules.ts';

const TIME_UNIT = { d: 'day', w: 'week', m: 'month', y: 'year' } as const satisfies Record<
  IntervalTimeUnit,
  string
>;
const KIND_LABEL = {
  mileage: 'intervals.kindMileage',
  engineHours: 'intervals.kindEngineHours',
  time: 'intervals.kindTime',
} as const;

/** Spec §2 /intervals: the fleet's intervals with frequency summaries, filters and CSV export. */
export default function IntervalsScreen() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const miles = fleet?.ms === 1;
  const canManage = useCan(routes.intervals.create);
  const navigate = useNavigate();
  const intervals = useIntervals(fid);
  const units = useUnits(fid);
  const [params, patchParams] = useUrlParams();
  const kindParam = params.get('kind');
  const typesParam = params.get('ut');
  const filters = useMemo(
    () => decodeFilters(new URLSearchParams({ kind: kindParam ?? '', ut: typesParam ?? '' })),
    [kindParam, typesParam],
  );
  const lang = i18n.language;

  const labels = useMemo<SummaryLabels>(
    () => ({
      lang,
      distance: unitLabel(lang, miles ? 'mile' : 'kilometer', 2, 'short'),
      engineHours: t('intervals.engineHoursUnit'),
      time: (value: number, unit: IntervalTimeUnit) =>
        `${formatNumber(value, { locale: lang })} ${unitLabel(lang, TIME_UNIT[unit], value, 'narrow')}`,
    }),
    [lang, miles, t],
  );

  const typeOf = useMemo(() => {
    const map = new Map((units.data ?? []).map((u) => [u.id, u.ut ?? null]));
    return (id: number) => map.get(id);
  }, [units.data]);

  const rows = useMemo(
    () => filterIntervals(intervals.data ?? [], filters, typeOf),
    [intervals.data, filters, typeOf],
  );

  /** A figure on a phone card, after its column's name; nothing when it is empty. */
  const named = (label: string, value: string) =>
    value === '' ? null : (
      <Text span size="sm">
        <Text span size="sm" c="dimmed">
          {label}:
        </Text>{' '}
        {value}
      </Text>
    );
  const columns = useMemo<DataColumn<IntervalWire>[]>(
    () => [
      {
        id: 'name',
        header: t('intervals.name'),
        value: (iv) => iv.n,
        cell: (iv) => (
          <Anchor component={Link} to={`/interval/${iv.id}`} fw={500}>
            {iv.n}
          </Anchor>
        ),
        // At phone width each interval is a card (docs/product.md "Phone"), its figures named.
        phone: 'title',
      },
      {
        id: 'frequency',
        header: t('intervals.frequency'),
        value: (iv) => frequencySummary(iv, miles, labels),
        sortable: false,
        phone: 'detail',
        phoneCell: (iv) => named(t('intervals.frequency'), frequencySummary(iv, miles, labels)),
      },
      {
        id: 'notice',
        header: t('intervals.notice'),
        value: (iv) => noticeSummary(iv, miles, labels),
        sortable: false,
        phone: 'detail',
        phoneCell: (iv) => named(t('intervals.notice'), noticeSummary(iv, miles, labels)),
      },
      {
        id: 'assigned',
        header: t('intervals.assigned'),
        value: (iv) => iv.u.length,
        text: (iv) => formatNumber(iv.u.length),
        searchable: false,
        phone: 'detail',
        phoneCell: (iv) => named(t('intervals.assigned'), formatNumber(iv.u.length)),
      },
    ],
    [t, miles, labels],
  );

  const setFilters = (patch: Partial<typeof filters>) =>
    patchParams((now) => encodeFilters(now, { ...decodeFilters(now), ...patch }));

  if (!auth) return null;
  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('menu.intervals')}
        </Title>
        {canManage && (
          <Group gap="xs">
            <FileButton
              accept=".csv,.txt,.xlsx"
              onChange={(file) => file && navigate('/intervals/import', { state: { file } })}
            >
              {(props) => (
                <Button variant="default" data-testid="import-open" {...props}>
                  {t('imports.action')}
                </Button>
              )}
            </FileButton>
            <Button component={Link} to="/interval/new" data-testid="interval-new">
              {t('intervals.new')}
            </Button>
          </Group>
        )}
      </Group>
      {intervals.isPending ? (
        <Loading />
      ) : (
        <DataTable
          data={rows}
          columns={columns}
          getRowId={(iv) => String(iv.id)}
          csvName="intervals"
          emptyText={(intervals.data ?? []).length === 0 ? t('intervals.empty') : t('controls.noMatches')}
          minWidth={640}
          data-testid="intervals"
          toolbar={
            <>
              <Select
                label={t('intervals.kind')}
                options={KINDS.map((k) => ({ value: k, label: t(KIND_LABEL[k]) }))}
                value={filters.kind}
                clearable
                searchable={false}
                onChange={(v) => setFilters({ kind: (v as Kind | null) ?? null })}
                style={{ flex: '0 1 12rem' }}
                data-testid="intervals-kind"
              />
              <UnitTypeFilter
                label={t('intervals.unitType')}
                types={auth?.unit_types ?? []}
                value={filters.unitTypes}
                onChange={(unitTypes) => setFilters({ unitTypes })}
                style={{ flex: '1 1 14rem', maxWidth: '24rem' }}
                data-testid="intervals-unit-types"
              />
            </>
          }
        />
      )}
    </Stack>
  );
}
