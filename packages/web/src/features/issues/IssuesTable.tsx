import { formatFleetDateTime, type IssueWire } from '@fleetkeep/core';
import { Badge } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { dayjsLocale } from '../../i18n/index.ts';
import { PRIORITY_COLOR, STATUS_COLOR } from './rules.ts';

/**
 * Issues on the one DataTable (phone cards: the title, then priority, status, object and date): the
 * /issues list and the object page's tab. The title links to the issue page.
 */
export function IssuesTable({
  issues,
  tz,
  dateFormat,
  timeFormat,
  showObject,
  toolbar,
  filters,
  activeFilters,
  urlPrefix,
  testId,
}: {
  issues: readonly IssueWire[];
  tz: number;
  dateFormat: string;
  timeFormat: string;
  showObject: boolean;
  toolbar?: ReactNode;
  filters?: ReactNode;
  activeFilters?: number;
  urlPrefix?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const columns = useMemo<DataColumn<IssueWire>[]>(() => {
    const when = (unix: number) => formatFleetDateTime(unix, tz, dateFormat, timeFormat, dayjsLocale());
    const badge = (color: string, label: string, id: string) => (
      <Badge color={color} variant="light" radius="sm" data-testid={id}>
        {label}
      </Badge>
    );
    const all: (DataColumn<IssueWire> | null)[] = [
      {
        id: 'title',
        header: t('issues.title'),
        value: (i) => i.title,
        cell: (i) => (
          <Link to={`/issues/${i.id}`} data-testid={`issue-link-${i.id}`}>
            {i.title}
          </Link>
        ),
        phone: 'title',
      },
      {
        id: 'priority',
        header: t('issues.priorityLabel'),
        // Sorted by urgency, shown by name.
        value: (i) => ['low', 'medium', 'high', 'critical'].indexOf(i.priority),
        text: (i) => t(`issues.priority.${i.priority}`),
        cell: (i) =>
          badge(PRIORITY_COLOR[i.priority], t(`issues.priority.${i.priority}`), 'issue-row-priority'),
        phone: 'detail',
      },
      {
        id: 'status',
        header: t('issues.statusLabel'),
        value: (i) => i.status,
        text: (i) => t(`issues.status.${i.status}`),
        cell: (i) => badge(STATUS_COLOR[i.status], t(`issues.status.${i.status}`), 'issue-row-status'),
        phone: 'detail',
      },
      showObject
        ? {
            id: 'object',
            header: t('issues.object'),
            value: (i) => i.object_name,
            cell: (i) => (
              <Link to={`/${i.object_type === 'u' ? 'unit' : 'trailer'}/${i.object_id}?tab=issues`}>
                {i.object_name}
              </Link>
            ),
            phone: 'detail',
            phoneCell: (i) => i.object_name,
          }
        : null,
      {
        id: 'reported',
        header: t('issues.reported'),
        value: (i) => i.reported_at,
        text: (i) => when(i.reported_at),
        cell: (i) => <span style={{ whiteSpace: 'nowrap' }}>{when(i.reported_at)}</span>,
        phone: 'detail',
      },
      {
        id: 'reporter',
        header: t('issues.reporter'),
        value: (i) => i.reported_by?.nm ?? '',
      },
      { id: 'photos', header: t('issues.photos'), value: (i) => i.ats, searchable: false },
    ];
    return all.filter((c): c is DataColumn<IssueWire> => c !== null);
  }, [t, tz, dateFormat, timeFormat, showObject]);

  return (
    <DataTable
      data={issues}
      columns={columns}
      getRowId={(i) => String(i.id)}
      urlPrefix={urlPrefix}
      csvName="issues"
      emptyText={t('issues.empty')}
      minWidth={900}
      toolbar={toolbar}
      filters={filters}
      activeFilters={activeFilters}
      data-testid={testId}
    />
  );
}
