import { Alert, Button, Divider, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * "Pull earlier counter values" of the fleet settings (PRODUCT.md "Administration", "Service objects and
 * counters"): each unit's mileage and engine hours from before it joined the fleet count into its actual
 * counters (`POST /api/fleets/{id}/pullcounters`, all units). Asks first; says how many units it changed.
 */
export function PullCounters({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<number | null>(null);
  const pull = useMutation({
    mutationFn: () => client.fleets.pullCounters(fid, {}),
    onSuccess: (reply) => {
      setDone(reply.units.length);
      // The statistics live under the units' key, so this reloads them too.
      void queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid, 'avl_unit') });
    },
    onSettled: () => setAsking(false),
  });

  return (
    <Stack gap="xs" data-testid="fleet-pull">
      <Divider my="sm" />
      <Text size="sm" fw={500}>
        {t('fleetAdmin.pullTitle')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('fleetAdmin.pullText')}
      </Text>
      <div>
        <Button variant="default" onClick={() => setAsking(true)} data-testid="fleet-pull-start">
          {t('fleetAdmin.pullButton')}
        </Button>
      </div>
      {done !== null && (
        <Text size="sm" c="green" role="status" data-testid="fleet-pull-done">
          {t('fleetAdmin.pullDone', { count: done })}
        </Text>
      )}
      {pull.isError && (
        <Alert color="red" role="alert">
          {t('common.error')}
        </Alert>
      )}
      <ConfirmDialog
        opened={asking}
        title={t('fleetAdmin.pullTitle')}
        text={t('fleetAdmin.pullConfirm')}
        busy={pull.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => pull.mutate()}
      />
    </Stack>
  );
}
