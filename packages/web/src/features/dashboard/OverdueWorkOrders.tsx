import { routes } from '@fleetkeep/core';
import { Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useCan } from '../../lib/useCan.ts';
import type { Format } from './Sections.tsx';

/**
 * The dashboard's "overdue work orders" (docs/product.md "Work orders"): scheduled end passed, neither
 * completed nor cancelled, soonest end first; hidden for users who do not see work orders.
 */
export function OverdueWorkOrders({ fid, fmt }: { fid: number; fmt: Format }) {
  const { t } = useTranslation();
  const can = useCan(routes.workOrders.list);
  const list = useQuery({
    queryKey: [...queryKeys.collection(fid, 'workorder'), 'overdue'],
    enabled: can,
    queryFn: async ({ signal }) =>
      (await client.workOrders.list(fid, { overdue: '1', sort: 'scheduled', limit: 10 }, { signal }))
        .work_orders,
  });
  if (!can) return null;
  if (list.isError)
    return (
      <Text c="red" role="alert">
        {t('dashboard.loadFailed')}
      </Text>
    );
  const rows = list.data ?? [];
  if (rows.length === 0) return <Text c="dimmed">{t('workOrders.dashboardNone')}</Text>;
  return (
    <Stack gap={4} data-testid="dash-overdue-work-orders">
      {rows.map((w) => (
        <Text key={w.id} size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Anchor component={Link} to={`/work-orders/${w.id}`} c="red">
            {w.title}
          </Anchor>{' '}
          <Text span c="dimmed" size="sm">
            {w.object_name}
            {w.scheduled_end !== null && ` · ${fmt.date(w.scheduled_end)}`}
          </Text>
        </Text>
      ))}
    </Stack>
  );
}
