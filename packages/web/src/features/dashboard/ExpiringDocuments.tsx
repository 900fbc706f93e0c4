import { routes } from '@fleetkeep/core';
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useCan } from '../../lib/useCan.ts';
import type { Format } from './Sections.tsx';

/**
 * The dashboard's "documents expiring or expired" (docs/product.md "Documents"): documents whose
 * reminder window is open or whose period has ended, soonest end first; hidden for users who do not
 * see documents.
 */
export function ExpiringDocuments({ fid, fmt }: { fid: number; fmt: Format }) {
  const { t } = useTranslation();
  const can = useCan(routes.documents.list);
  const list = useQuery({
    queryKey: [...queryKeys.fleet(fid), 'documents', 'attention'],
    enabled: can,
    queryFn: async ({ signal }) =>
      (await client.documents.list(fid, { state: 'attention', limit: 10 }, { signal })).documents,
  });
  if (!can) return null;
  if (list.isError)
    return (
      <Text c="red" role="alert">
        {t('dashboard.loadFailed')}
      </Text>
    );
  const rows = list.data ?? [];
  if (rows.length === 0) return <Text c="dimmed">{t('documents.dashboardEmpty')}</Text>;
  return (
    <Stack gap={4} data-testid="dash-expiring-documents">
      {rows.map((d) => (
        <Group key={d.id} gap={6} wrap="nowrap" align="baseline">
          <Badge
            color={d.state === 'expired' ? 'red' : 'orange'}
            variant="light"
            size="sm"
            style={{ flexShrink: 0 }}
          >
            {t(`documents.state.${d.state}`)}
          </Badge>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Anchor component={Link} to={`/documents/${d.id}`} data-testid={`dash-doc-${d.id}`}>
              {d.type === 'custom' ? d.type_name : t(`documents.type.${d.type}`)}
            </Anchor>{' '}
            <Text span c="dimmed" size="sm">
              {d.owner_name} · {fmt.date(d.valid_to)}
            </Text>
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
