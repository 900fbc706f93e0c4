import {
  localDate,
  REPORT_GROUPS,
  REPORT_IDS_MAX,
  REPORT_ROWS_MAX,
  REPORT_TYPES,
  type ReportGroup,
  type ReportRowWire,
  type ReportType,
  type ReportWire,
} from '@fleetkeep/core';
import { Alert, Anchor, Box, Group, LoadingOverlay, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PeriodFields } from '../../components/PeriodFields.tsx';
import { MultiSelect, Select } from '../../components/Select.tsx';
import { dayjsLocale } from '../../i18n/index.ts';
import { ApiError } from '../../lib/api.ts';
import { useDrivers, useTrailers, useUnits } from '../../lib/fleetData.ts';
import { naturalCollator } from '../../lib/naturalSort.ts';
import { type Period, periodError } from '../../lib/periods.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useReport } from './api.ts';
import { columnTitle, formatCell, formatTotal, type ReportFormatContext, sortValue } from './columns.ts';
import { ExportButtons, ExportStatus, useExporter } from './ExportButtons.tsx';
import { ReportsTabs } from './mails/ReportsTabs.tsx';
import { ReportChart } from './ReportChart.tsx';
import classes from './Reports.module.css';
import {
  decodeReportState,
  encodeReportState,
  OBJECT_KINDS,
  type ObjectKind,
  type ReportState,
  reportExportUrl,
} from './rules.ts';

const KIND_LABEL: Record<ObjectKind, string> = {
  u: 'objects.filterUnits',
  d: 'objects.filterDrivers',
  t: 'objects.filterTrailers',
};
const OBJECT_PATH: Record<ObjectKind, string> = { u: 'unit', d: 'driver', t: 'trailer' };
const ALL = 'all';

/** A row of the table: the reply's row and its place (rows have no id of their own). */
interface Line {
  i: number;
  row: ReportRowWire;
}

/**
 * Spec §2 /reports, PRODUCT.md "Reports": a report type, its period (spec §9 time
 * ranges), the objects it covers (every object, one kind, or chosen objects of a kind) and its grouping
 * (none, day, week, month), all kept in the URL; the server's report shown as a chart and as the one
 * DataTable with its totals, values formatted by column kind (spec §9 "Number display"); exports as
 * XLSX, CSV and PDF downloaded from the server with progress and Cancel.
 */
export default function ReportsScreen() {
  // The report and its report mails, as tabs.
  return (
    <ReportsTabs>
      <ReportView />
    </ReportsTabs>
  );
}

function ReportView() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const [params, patchParams] = useUrlParams();
  const today = localDate(fleet?.tz ?? 0, Math.floor(Date.now() / 1000));
  const state = decodeReportState(params, today);
  const badPeriod = periodError(state.period.from, state.period.to);
  const report = useReport(fid, state, badPeriod === null);
  const data = report.data;

  const units = useUnits<{ id: number; nm: string }>(state.kind === 'u' ? fid : null);
  const drivers = useDrivers<{ id: number; n: string }>(state.kind === 'd' ? fid : null);
  const trailers = useTrailers<{ id: number; n: string }>(state.kind === 't' ? fid : null);
  const objectOptions = useMemo(() => {
    const people = state.kind === 'd' ? drivers.data : state.kind === 't' ? trailers.data : undefined;
    const list =
      state.kind === 'u'
        ? (units.data ?? []).map((u) => ({ value: String(u.id), label: u.nm }))
        : (people ?? []).map((p) => ({ value: String(p.id), label: p.n }));
    return list.sort((a, b) => naturalCollator.compare(a.label, b.label));
  }, [state.kind, units.data, drivers.data, trailers.data]);

  const lang = i18n.language;
  const locale = dayjsLocale();
  // The reply says the fleet's units it was computed in; before it arrives the fleet's own.
  const ms = data?.ms ?? fleet?.ms ?? 0;
  const fm = data?.fm ?? fleet?.fm ?? 1;
  const currency = fleet?.cur ?? '';
  const ctx = useMemo<ReportFormatContext>(
    () => ({ lang, ms, fm, currency, dateFormat, locale, t: (key: string) => t(key) }),
    [lang, ms, fm, currency, dateFormat, locale, t],
  );

  const columns = useMemo((): DataColumn<Line>[] => {
    if (!data) return [];
    return data.columns.map((c) => ({
      id: c.key,
      header: columnTitle(t(`reports.col.${c.key}`), c.kind, ctx),
      value: (l: Line) => sortValue(c.kind, l.row[c.key], ctx),
      text: (l: Line) => formatCell(c.kind, l.row[c.key], ctx),
      cell:
        c.key === 'object'
          ? (l: Line) => {
              const text = formatCell(c.kind, l.row[c.key], ctx);
              const ot = l.row.ot;
              const oid = l.row.oid;
              if (typeof oid !== 'number' || (ot !== 'u' && ot !== 'd' && ot !== 't')) return text;
              return (
                <Anchor component={Link} to={`/${OBJECT_PATH[ot]}/${oid}`} style={{ whiteSpace: 'nowrap' }}>
                  {text}
                </Anchor>
              );
            }
          : undefined,
    }));
  }, [data, ctx, t]);
  const exporter = useExporter(
    (format) => reportExportUrl(fid ?? 0, state, format),
    `${state.type}-${state.period.from}-${state.period.to}`,
  );
  const lines = useMemo(() => (data?.rows ?? []).map((row, i): Line => ({ i, row })), [data]);

  if (!auth || fid === null) return null;

  const setState = (patch: Partial<ReportState>) =>
    patchParams((p) => encodeReportState(p, { ...decodeReportState(p, today), ...patch }));
  const setPeriod = (period: Period) => setState({ period });

  const controls = (
    <div className={classes.controls}>
      <Select
        label={t('reports.screen.type')}
        options={REPORT_TYPES.map((type) => ({ value: type, label: t(`reports.type.${type}`) }))}
        value={state.type}
        searchable={false}
        allowDeselect={false}
        onChange={(v) => v && setState({ type: v as ReportType })}
        style={{ flex: '1 1 16rem', maxWidth: '22rem' }}
        data-testid="report-type"
      />
      <PeriodFields
        period={state.period}
        today={today}
        dateFormat={dateFormat}
        onChange={setPeriod}
        testIdPrefix="report"
      />
      <Select
        label={t('reports.screen.grouping')}
        options={REPORT_GROUPS.map((g) => ({ value: g, label: t(`reports.screen.group_${g}`) }))}
        value={state.group}
        searchable={false}
        allowDeselect={false}
        onChange={(v) => v && setState({ group: v as ReportGroup })}
        style={{ flex: '0 1 10rem' }}
        data-testid="report-group"
      />
      <Select
        label={t('reports.screen.objectKind')}
        options={[
          { value: ALL, label: t('reports.screen.allObjects') },
          ...OBJECT_KINDS.map((k) => ({ value: k, label: t(KIND_LABEL[k]) })),
        ]}
        value={state.kind ?? ALL}
        searchable={false}
        allowDeselect={false}
        onChange={(v) => v && setState({ kind: v === ALL ? null : (v as ObjectKind), objects: [] })}
        style={{ flex: '0 1 11rem' }}
        data-testid="report-kind"
      />
      {state.kind !== null && (
        <MultiSelect
          label={t('reports.screen.objects')}
          placeholder={state.objects.length === 0 ? t('reports.screen.objectsAll') : undefined}
          options={objectOptions}
          value={state.objects.map(String)}
          maxValues={REPORT_IDS_MAX}
          clearable
          onChange={(v) => setState({ objects: v.map(Number) })}
          style={{ flex: '1 1 14rem', maxWidth: '28rem' }}
          data-testid="report-objects"
        />
      )}
    </div>
  );

  const titleOf = (key: string) => {
    const c = data?.columns.find((col) => col.key === key);
    return c ? columnTitle(t(`reports.col.${c.key}`), c.kind, ctx) : t(`reports.col.${key}`);
  };
  const totals = (reply: ReportWire) => {
    const shown = reply.columns.filter((c) => c.key in reply.totals);
    if (shown.length === 0) return null;
    return (
      <Box className={classes.totals} mt="xs" data-testid="report-totals">
        <Text size="sm" fw={700}>
          {t('reports.screen.total')}
        </Text>
        {shown.map((c) => (
          <Text size="sm" key={c.key} data-testid={`report-total-${c.key}`}>
            {t(`reports.col.${c.key}`)}: <b>{formatTotal(c.kind, reply.totals[c.key] ?? null, ctx)}</b>
          </Text>
        ))}
      </Box>
    );
  };

  let result: ReactNode;
  if (badPeriod) result = null;
  else if (report.isError && !data)
    result = (
      <Alert color="red" role="alert" data-testid="report-error">
        {report.error instanceof ApiError ? report.error.reason : t('reports.screen.loadFailed')}
      </Alert>
    );
  else if (!data) result = <Loading />;
  else {
    const hasChart = data.rows.length > 0 && data.chart.points.length > 0;
    const seriesName =
      data.chart.series === 'rows' ? t('reports.col.services_count') : titleOf(data.chart.series);
    result = (
      <Box
        pos="relative"
        className={classes.result}
        data-testid="report-result"
        data-type={data.type}
        data-loading={report.isPlaceholderData || report.isFetching ? 1 : 0}
      >
        <LoadingOverlay visible={report.isPlaceholderData} zIndex={2} overlayProps={{ blur: 1 }} />
        <Stack gap="md">
          {report.isError && (
            <Alert color="red" role="alert" data-testid="report-error">
              {report.error instanceof ApiError ? report.error.reason : t('reports.screen.loadFailed')}
            </Alert>
          )}
          {data.truncated === 1 && (
            <Alert color="yellow" data-testid="report-truncated">
              {t('reports.export.truncated', { count: REPORT_ROWS_MAX })}
            </Alert>
          )}
          {hasChart && (
            <Paper withBorder p="sm" radius="md">
              <ReportChart
                chart={data.chart}
                name={seriesName}
                label={`${t('reports.screen.chart')}: ${t(`reports.type.${data.type}`)}`}
                ctx={ctx}
              />
            </Paper>
          )}
          <DataTable
            data={lines}
            columns={columns}
            getRowId={(l) => String(l.i)}
            emptyText={t('reports.screen.empty')}
            minWidth={Math.max(480, columns.length * 130)}
            summary={() => totals(data)}
            data-testid="report-table"
          />
        </Stack>
      </Box>
    );
  }

  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Title order={1} size="h2">
          {t('menu.reports')}
        </Title>
        <ExportButtons exporter={exporter} disabled={badPeriod !== null} />
      </Group>
      <ExportStatus exporter={exporter} />
      {controls}
      {result}
    </Stack>
  );
}
