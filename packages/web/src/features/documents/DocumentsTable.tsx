import type { DocumentWire } from '@fleetkeep/core';
import { Anchor, Badge } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import type { DocumentFormat } from './format.ts';
import { STATE_COLOR } from './rules.ts';

/** The documents as a table (cards on phones): type, owner, number, end, state, cost. */
export function DocumentsTable({
  documents,
  fmt,
  showOwner = true,
  filters,
  activeFilters,
  testId,
}: {
  documents: readonly DocumentWire[];
  fmt: DocumentFormat;
  showOwner?: boolean;
  filters?: React.ReactNode;
  activeFilters?: number;
  testId: string;
}) {
  const { t } = useTranslation();
  const columns = useMemo<DataColumn<DocumentWire>[]>(() => {
    const typeName = (d: DocumentWire) => (d.type === 'custom' ? d.type_name : t(`documents.type.${d.type}`));
    const stateText = (d: DocumentWire) =>
      d.state === 'expiring'
        ? t('documents.daysLeft', { days: Math.max(0, d.days_left) })
        : t(`documents.state.${d.state}`);
    return [
      {
        id: 'type',
        header: t('documents.field.type'),
        value: typeName,
        cell: (d) => (
          <Anchor component={Link} to={`/documents/${d.id}`} data-testid={`doc-link-${d.id}`}>
            {typeName(d)}
          </Anchor>
        ),
        phone: 'title',
      },
      ...(showOwner
        ? [
            {
              id: 'owner',
              header: t('documents.field.owner'),
              value: (d: DocumentWire) => d.owner_name,
              text: (d: DocumentWire) => `${d.owner_name} (${t(`documents.owner.${d.owner_type}`)})`,
              phone: 'detail' as const,
            },
          ]
        : []),
      { id: 'number', header: t('documents.field.number'), value: (d) => d.number, phone: 'detail' },
      {
        id: 'validTo',
        header: t('documents.field.validTo'),
        value: (d) => d.valid_to,
        text: (d) => fmt.date(d.valid_to),
        phone: 'detail',
      },
      {
        id: 'state',
        header: t('documents.field.state'),
        value: (d) => d.state,
        text: stateText,
        cell: (d) => (
          <Badge color={STATE_COLOR[d.state]} variant="light" data-testid={`doc-state-${d.id}`}>
            {stateText(d)}
          </Badge>
        ),
        phone: 'end',
      },
      {
        id: 'cost',
        header: t('documents.field.cost'),
        value: (d) => d.cost,
        text: (d) => fmt.money(d.cost),
        csv: (d) => d.cost,
      },
    ];
  }, [t, fmt, showOwner]);
  return (
    <DataTable
      data={documents}
      columns={columns}
      getRowId={(d) => String(d.id)}
      csvName="documents"
      emptyText={t('documents.empty')}
      minWidth={720}
      filters={filters}
      activeFilters={activeFilters}
      data-testid={testId}
    />
  );
}
