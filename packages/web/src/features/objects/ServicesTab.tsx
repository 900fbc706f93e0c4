import { isOverdue } from '@fleetkeep/core';
import { Alert, Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { ServiceStatusBadge } from '../../components/ServiceStatus.tsx';
import { useArchivedServices, useOpenServices } from '../../lib/services.ts';
import { PeriodPicker } from './PeriodPicker.tsx';
import { compareNames, KIND_INFO, type ObjectService, servicesOf } from './rules.ts';
import { type PeriodTabProps, useLabels, usePeriodTab } from './useLabels.ts';

/** A list of services: name (link to the editor), status, a date and the cost. */
function ServiceTable({
  services,
  dateHeader,
  dateOf,
  testId,
}: {
  services: ObjectService[];
  dateHeader: string;
  dateOf: (s: ObjectService) => number | null;
  testId: string;
}) {
  const { t } = useTranslation();
  const labels = useLabels();
  return (
    <Table.ScrollContainer minWidth={560} type="native">
      <Table striped data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('objects.serviceName')}</Table.Th>
            <Table.Th>{t('objects.status')}</Table.Th>
            <Table.Th>{dateHeader}</Table.Th>
            <Table.Th>{t('objects.cost')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {services.map((s) => {
            const overdue = isOverdue(s.f);
            return (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/service/${s.id}`} fw={500}>
                    {s.n}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <ServiceStatusBadge f={s.f} />
                </Table.Td>
                <Table.Td c={overdue ? 'red' : undefined} fw={overdue ? 600 : undefined}>
                  {labels.date(dateOf(s))}
                </Table.Td>
                <Table.Td>{labels.money(s.total_cost ?? 0)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The services tab: the object's open services (overdue in red), then its archive of the period. */
export function ServicesTab({ object, period, onPeriod }: PeriodTabProps) {
  const { t } = useTranslation();
  const { fid, range } = usePeriodTab(period);
  const { t: code } = KIND_INFO[object.kind];
  const open = useOpenServices(fid, { t: code, id: object.id });
  const archive = useArchivedServices(fid, range.from, range.to);
  const openRows = useMemo(
    () =>
      [...(open.data ?? [])].sort(
        (a, b) => (a.limit_date ?? Infinity) - (b.limit_date ?? Infinity) || compareNames(a.n, b.n),
      ),
    [open.data],
  );
  const archived = useMemo(
    () =>
      servicesOf(archive.data ?? [], code, object.id).sort((a, b) => (b.end_date ?? 0) - (a.end_date ?? 0)),
    [archive.data, code, object.id],
  );

  const failed = (
    <Alert color="red" role="alert">
      {t('objects.loadFailed')}
    </Alert>
  );
  return (
    <Stack>
      <Title order={2} size="h4">
        {t('objects.openServices')}
      </Title>
      {open.isPending ? (
        <Loading />
      ) : open.isError ? (
        failed
      ) : openRows.length === 0 ? (
        <Text c="dimmed" data-testid="object-open-empty">
          {t('objects.noOpenServices')}
        </Text>
      ) : (
        <ServiceTable
          services={openRows}
          dateHeader={t('objects.plannedDate')}
          dateOf={(s) => s.limit_date ?? s.start_date}
          testId="object-open-services"
        />
      )}
      <Title order={2} size="h4" mt="md">
        {t('objects.archive')}
      </Title>
      <PeriodPicker value={period} onChange={onPeriod} />
      {archive.isPending ? (
        <Loading />
      ) : archive.isError ? (
        failed
      ) : archived.length === 0 ? (
        <Text c="dimmed" data-testid="object-archive-empty">
          {t('objects.noArchived')}
        </Text>
      ) : (
        <ServiceTable
          services={archived}
          dateHeader={t('objects.endDate')}
          dateOf={(s) => s.end_date}
          testId="object-archive"
        />
      )}
    </Stack>
  );
}
