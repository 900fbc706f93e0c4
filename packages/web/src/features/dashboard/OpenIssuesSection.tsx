import { ISSUE_PRIORITIES, routes } from '@fleetkeep/core';
import { Anchor, Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useCan } from '../../lib/useCan.ts';
import type { Format } from './Sections.tsx';

const COLOR = { low: 'gray', medium: 'blue', high: 'orange', critical: 'red' } as const;

/**
 * "Open issues by priority" (docs/product.md "Issues"): the fleet's active issues, open and in a work
 * order, counted per priority, each count a link to the list filtered by it. Refreshed by the issues'
 * live events (the `issue` collection).
 */
export function OpenIssuesSection({ fid, fmt }: { fid: number; fmt: Format }) {
  const { t } = useTranslation();
  const canList = useCan(routes.issues.list);
  const summary = useQuery({
    queryKey: [...queryKeys.collection(fid, 'issue'), 'summary'],
    queryFn: async ({ signal }) => client.issues.summary(fid, { signal }),
  });
  if (summary.isError)
    return (
      <Text c="red" role="alert">
        {t('dashboard.loadFailed')}
      </Text>
    );
  if (!summary.data) return null;
  const s = summary.data;
  return (
    <SimpleGrid cols={2} spacing="sm" data-testid="dash-open-issues">
      {[...ISSUE_PRIORITIES].reverse().map((p) => {
        const count = s.open[p] + s.workorder[p];
        const label = (
          <Group gap="xs" wrap="nowrap">
            <Text fz={28} fw={700} lh={1} data-testid={`dash-issues-${p}`}>
              {fmt.number(count)}
            </Text>
            <Badge color={COLOR[p]} variant="light" radius="sm">
              {t(`issues.priority.${p}`)}
            </Badge>
          </Group>
        );
        return (
          <Stack key={p} gap={2}>
            {canList ? (
              <Anchor component={Link} to={`/issues?priority=${p}`} underline="never" c="inherit">
                {label}
              </Anchor>
            ) : (
              label
            )}
            {s.workorder[p] > 0 && (
              <Text size="xs" c="dimmed">
                {t('issues.inWorkOrders', { value: s.workorder[p] })}
              </Text>
            )}
          </Stack>
        );
      })}
    </SimpleGrid>
  );
}
