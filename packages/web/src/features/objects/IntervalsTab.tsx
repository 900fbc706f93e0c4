import { formatNumber } from '@fleetkeep/core';
import { Alert, Anchor, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { useSession } from '../../lib/session.ts';
import { useBases, useIntervals } from './api.ts';
import type { ObjectRecord } from './ObjectScreen.tsx';
import { assignedIntervals, remainingValues } from './rules.ts';
import { useLabels } from './useLabels.ts';

/**
 * The intervals tab: the intervals assigned to the object with the remaining value of each enabled
 * kind ('In: X' / 'Overdue: X', spec §9; time in days) and the baseline of the last service.
 */
export function IntervalsTab({ object }: { object: ObjectRecord }) {
  const { t } = useTranslation();
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const labels = useLabels();
  const intervals = useIntervals(fid);
  const bases = useBases(fid, object.kind, object.id, true);
  const unit = object.unit;
  const counters = useMemo(
    () => ({ mileage: unit ? (unit.cnm ?? 0) : null, engineHours: unit ? (unit.cneh ?? 0) : null }),
    [unit],
  );
  const rows = useMemo(
    () => assignedIntervals(intervals.data ?? [], bases.data ?? []),
    [intervals.data, bases.data],
  );

  if (intervals.isPending || bases.isPending) return <Loading />;
  if (intervals.isError || bases.isError)
    return (
      <Alert color="red" role="alert">
        {t('objects.loadFailed')}
      </Alert>
    );
  if (rows.length === 0)
    return (
      <Text c="dimmed" data-testid="object-intervals-empty">
        {t('objects.noIntervals')}
      </Text>
    );

  const now = Date.now() / 1000;
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table striped data-testid="object-intervals">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('objects.interval')}</Table.Th>
            <Table.Th>{t('objects.remaining')}</Table.Th>
            <Table.Th>{t('objects.lastService')}</Table.Th>
            <Table.Th>{t('objects.executions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(({ interval, base }) => {
            const remaining = remainingValues(interval, base, counters, labels.miles, now, labels.tz);
            return (
              <Table.Tr key={interval.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/interval/${interval.id}`} fw={500}>
                    {interval.n}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    {remaining.map((r) => (
                      <Text
                        key={r.kind}
                        size="sm"
                        c={r.overdue ? 'red' : undefined}
                        fw={r.overdue ? 600 : undefined}
                        data-testid={`remaining-${r.kind}`}
                      >
                        {labels.remaining(r)}
                      </Text>
                    ))}
                    {remaining.length === 0 && <Text size="sm">-</Text>}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    {unit && interval.cnme === 1 && <Text size="sm">{labels.distance(base.lcnm ?? 0)}</Text>}
                    {unit && interval.cnehe === 1 && (
                      <Text size="sm">{labels.engineHours(base.lceh ?? 0)}</Text>
                    )}
                    <Text size="sm">{labels.date(base.ltm)}</Text>
                  </Stack>
                </Table.Td>
                <Table.Td>{formatNumber(base.cnt)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
