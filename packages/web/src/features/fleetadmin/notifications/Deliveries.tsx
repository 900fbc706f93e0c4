import type { DeliveryWire } from '@fleetkeep/core';
import { Alert, Badge, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataColumn, DataTable } from '../../../components/DataTable/DataTable.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { fleetTime } from '../../../lib/fleetTime.ts';
import { useSession } from '../../../lib/session.ts';
import { useDeliveries, useRetryDelivery } from './api.ts';
import { CHANNEL_TITLE } from './rules.ts';

const STATUS_COLOR = { pending: 'yellow', sent: 'green', failed: 'red' } as const;

/**
 * The delivery log (PRODUCT.md "Notifications": deliveries are retried with backoff and recorded so an
 * admin can see failures; contracts/notification-channels.ts `GET /api/fleets/{fid}/deliveries`): one
 * row per recipient (the e-mail address or chat), "send test" rows marked as tests, and a failed
 * delivery retried by hand.
 */
export function Deliveries({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const settings = session.status === 'authenticated' ? session.auth.model.s : null;
  const deliveries = useDeliveries(fid);
  const retry = useRetryDelivery(fid);
  const [retryError, setRetryError] = useState<string | null>(null);
  const retryOne = (id: number) => {
    setRetryError(null);
    retry.mutate(id, {
      onError: (err) => setRetryError(err instanceof ApiError && err.reason ? err.reason : String(err)),
    });
  };
  // One clock: the fleet's, its zone named when the browser's differs (docs/product.md).
  const tz = session.status === 'authenticated' ? session.auth.fleets.find((f) => f.id === fid)?.tz : 0;
  const time = (tm: number | null) => (tm === null || !settings ? '-' : fleetTime(tm, tz, settings));

  const columns: DataColumn<DeliveryWire>[] = [
    {
      id: 'tm',
      header: t('fleetAdmin.notify.time'),
      value: (d) => d.tm,
      text: (d) => time(d.tm),
      phone: 'detail',
    },
    {
      id: 'channel',
      header: t('fleetAdmin.notify.channel'),
      value: (d) => d.channel,
      text: (d) => t(CHANNEL_TITLE[d.channel]),
      phone: 'detail',
    },
    {
      id: 'setup',
      header: t('fleetAdmin.notify.setup'),
      value: (d) => d.setup_name || `#${d.setup_id}`,
      phone: 'title',
      cell: (d) => (
        <>
          {d.setup_name || `#${d.setup_id}`}{' '}
          {d.test === 1 && (
            <Badge color="gray" variant="outline" size="sm" data-testid="delivery-test">
              {t('fleetAdmin.notify.testBadge')}
            </Badge>
          )}
        </>
      ),
    },
    {
      id: 'recipient',
      header: t('fleetAdmin.notify.recipient'),
      value: (d) => d.recipient,
      phone: 'detail',
      cell: (d) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {d.recipient || '-'}
        </Text>
      ),
    },
    {
      id: 'status',
      header: t('fleetAdmin.notify.status'),
      value: (d) => d.status,
      text: (d) => t(`fleetAdmin.notify.status_${d.status}`),
      phone: 'detail',
      cell: (d) => (
        <Badge color={STATUS_COLOR[d.status]} variant="light">
          {t(`fleetAdmin.notify.status_${d.status}`)}
        </Badge>
      ),
    },
    { id: 'attempts', header: t('fleetAdmin.notify.attempts'), value: (d) => d.attempts },
    {
      id: 'error',
      header: t('fleetAdmin.notify.lastError'),
      value: (d) => d.error ?? '',
      phone: 'detail',
      cell: (d) => (
        <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }} title={d.error ?? ''}>
          {d.error ?? '-'}
        </Text>
      ),
    },
    {
      id: 'actions',
      header: t('fleetAdmin.notify.retry'),
      hiddenHeader: true,
      value: () => '',
      sortable: false,
      searchable: false,
      exported: false,
      phone: 'end',
      cell: (d) =>
        d.status === 'failed' && d.test === 0 ? (
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => retryOne(d.id)}
            loading={retry.isPending && retry.variables === d.id}
          >
            {t('fleetAdmin.notify.retry')}
          </Button>
        ) : null,
    },
  ];
  const notThere = deliveries.error instanceof ApiError && deliveries.error.status === 404;

  return (
    <Stack gap="xs" data-testid="notify-deliveries">
      <Title order={4}>{t('fleetAdmin.notify.deliveries')}</Title>
      {retryError && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setRetryError(null)}>
          {t('fleetAdmin.notify.retryFailed', { reason: retryError })}
        </Alert>
      )}
      {deliveries.isPending ? (
        <Loading />
      ) : deliveries.isError ? (
        <Alert color={notThere ? 'gray' : 'red'} role="alert">
          {notThere ? t('fleetAdmin.notify.unavailable') : t('fleetAdmin.notify.loadFailed')}
        </Alert>
      ) : (
        <DataTable
          data={deliveries.data.deliveries}
          columns={columns}
          getRowId={(d) => String(d.id)}
          urlPrefix="nd"
          csvName="deliveries"
          emptyText={t('fleetAdmin.notify.noDeliveries')}
          minWidth={900}
          toolbar={
            <Button
              variant="default"
              onClick={() => void deliveries.refetch()}
              loading={deliveries.isFetching}
            >
              {t('fleetAdmin.notify.refresh')}
            </Button>
          }
        />
      )}
    </Stack>
  );
}
