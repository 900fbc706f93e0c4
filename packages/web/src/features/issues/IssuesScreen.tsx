import { ISSUE_PRIORITIES, routes } from '@fleetkeep/core';
import { Alert, Button, FileButton, Group, Stack, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { Select } from '../../components/Select.tsx';
import { ApiError } from '../../lib/api.ts';
import { useTrailers, useUnits } from '../../lib/fleetData.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { useIssues } from './api.ts';
import { IssuesTable } from './IssuesTable.tsx';
import { ReportIssueDialog } from './ReportIssueDialog.tsx';
import { decodeFilters, filtersQuery, STATUS_FILTERS } from './rules.ts';
import { useFleetFormats } from './useFleetFormats.ts';

/**
 * /issues (docs/product.md "Issues"): the fleet's issues on the DataTable, filtered by status (the
 * active ones by default), priority and object, the filters kept in the URL; "Report issue" opens the
 * dialog and then the new issue's page.
 */
export default function IssuesScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { fid, tz, dateFormat, timeFormat } = useFleetFormats();
  const canReport = useCan(routes.issues.create);
  // The issues import: as resolving and closing issues (docs/product.md "Issues").
  const canImport = useCan(routes.imports.importIssues);
  const [params, patchParams] = useUrlParams();
  const filters = decodeFilters(params);
  const list = useIssues(fid, filtersQuery(filters));
  const units = useUnits(fid);
  const trailers = useTrailers(fid);
  const [reporting, setReporting] = useState(false);

  const objectOptions = useMemo(
    () => [
      ...(units.data ?? []).map((u) => ({ value: `u${u.id}`, label: u.nm })),
      ...(trailers.data ?? []).map((p) => ({
        value: `t${p.id}`,
        label: `${p.n} (${t('objects.kindTrailer')})`,
      })),
    ],
    [units.data, trailers.data, t],
  );
  const setParam = (name: string, value: string | null, fallback: string | null = null) =>
    patchParams((p) => {
      if (value === null || value === fallback) p.delete(name);
      else p.set(name, value);
      return p;
    });

  if (fid === null) return null;
  const filterFields = (
    <>
      <Select
        label={t('issues.statusLabel')}
        options={STATUS_FILTERS.map((s) => ({
          value: s,
          label:
            s === 'active'
              ? t('issues.filterActive')
              : s === 'all'
                ? t('issues.filterAll')
                : t(`issues.status.${s}`),
        }))}
        value={filters.status}
        onChange={(v) => setParam('status', v, 'active')}
        allowDeselect={false}
        style={{ flex: '1 1 10rem', maxWidth: '14rem' }}
        data-testid="issues-status-filter"
      />
      <Select
        label={t('issues.priorityLabel')}
        placeholder={t('issues.filterAll')}
        options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: t(`issues.priority.${p}`) }))}
        value={filters.priority}
        clearable
        onChange={(v) => setParam('priority', v)}
        style={{ flex: '1 1 10rem', maxWidth: '14rem' }}
        data-testid="issues-priority-filter"
      />
      <Select
        label={t('issues.object')}
        placeholder={t('issues.filterAll')}
        options={objectOptions}
        value={filters.object ? `${filters.object.type}${filters.object.id}` : null}
        clearable
        searchable
        onChange={(v) => setParam('object', v)}
        style={{ flex: '1 1 12rem', maxWidth: '18rem' }}
        data-testid="issues-object-filter"
      />
    </>
  );
  const active =
    (filters.status !== 'active' ? 1 : 0) + (filters.priority ? 1 : 0) + (filters.object ? 1 : 0);

  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('issues.heading')}
        </Title>
        <Group gap="xs">
          {canReport && (
            <Button onClick={() => setReporting(true)} data-testid="issue-report">
              {t('issues.report')}
            </Button>
          )}
          {canImport && (
            <FileButton
              accept=".csv,.txt,.xlsx"
              onChange={(file) => file && navigate('/issues/import', { state: { file } })}
            >
              {(props) => (
                <Button variant="default" data-testid="import-open" {...props}>
                  {t('imports.action')}
                </Button>
              )}
            </FileButton>
          )}
        </Group>
      </Group>
      {list.isError ? (
        <Alert color="red" role="alert">
          {list.error instanceof ApiError ? list.error.reason : t('issues.loadFailed')}
        </Alert>
      ) : list.isPending ? (
        <Loading />
      ) : (
        <IssuesTable
          issues={list.data.issues}
          tz={tz}
          dateFormat={dateFormat}
          timeFormat={timeFormat}
          showObject
          filters={filterFields}
          activeFilters={active}
          testId="issues-table"
        />
      )}
      {reporting && (
        <ReportIssueDialog
          fid={fid}
          onClose={() => setReporting(false)}
          onReported={(id) => {
            setReporting(false);
            navigate(`/issues/${id}`);
          }}
        />
      )}
    </Stack>
  );
}
