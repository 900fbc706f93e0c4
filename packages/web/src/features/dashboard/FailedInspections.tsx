import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import type { useFleetFormat } from './useDashboard.ts';

/** Days the section looks back. */
const DAYS = 7;
/** Inspections the section lists by name; the count covers all. */
const LISTED = 5;

/**
 * Dashboard section "failed inspections in the last 7 days" (docs/product.md "Inspections"): how many
 * inspections found defects, the latest few with their unit, worst severity and state, and a link to
 * the list filtered on defects. Refreshed by the `inspection` live events.
 */
export function FailedInspectionsSection({
  fid,
  fmt,
}: {
  fid: number;
  fmt: ReturnType<typeof useFleetFormat>;
}) {
  const { t } = useTranslation();
  // The window starts at the current hour, so the query key stays the same for an hour.
  const since = Math.floor(Date.now() / 3_600_000) * 3600 - DAYS * 86_400;
  const failed = useQuery({
    queryKey: [...queryKeys.collection(fid, 'inspection'), 'dashboard', since],
    queryFn: async ({ signal }) =>
      (await client.inspections.list(fid, { d: '1', since }, { signal })).inspections,
  });
  if (failed.isError) return <Text c="red">{t('dashboard.loadFailed')}</Text>;
  if (!failed.data) return <Loading />;
  const rows = failed.data;
  return (
    <Stack gap="xs" data-testid="dash-failed-inspections">
      <Text size="xl" fw={700}>
        {fmt.number(rows.length)}
      </Text>
      {rows.length === 0 && <Text c="dimmed">{t('inspections.dashboardNone')}</Text>}
      {rows.slice(0, LISTED).map((r) => (
        <Group key={r.id} justify="space-between" wrap="nowrap" gap="xs">
          <Anchor component={Link} to={`/inspections/${r.id}`} size="sm" truncate>
            {fmt.date(r.at)} · {r.on}
          </Anchor>
          {r.ws && (
            <Badge variant="light" color={r.st === 'certified' ? 'blue' : 'red'} style={{ flexShrink: 0 }}>
              {t(`inspections.severity.${r.ws}`)}
            </Badge>
          )}
        </Group>
      ))}
      {rows.length > 0 && (
        <Anchor component={Link} to="/inspections?defects=1" size="sm">
          {t('inspections.back')}
        </Anchor>
      )}
    </Stack>
  );
}
