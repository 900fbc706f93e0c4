import { type DeliveryWire, formatDateTime } from '@fleetkeep/core';
import { Alert, Badge, Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../app/Loading.tsx';
import { useSession } from '../../../app/session.ts';
import { type DataColumn, DataTable } from '../../../components/DataTable/DataTable.tsx';
import { dayjsLocale } from '../../../i18n/index.ts';
import { ApiError } from '../../../lib/api.ts';
import { useDeliveries } from './api.ts';
import { CHANNEL_TITLE } from './rules.ts';

const STATUS_COLOR = { pending: 'yellow', sent: 'green', failed: 'red' } as const;

/**
 * The delivery log (PRODUCT.md "Notifications": deliveries are retried with backoff and recorded so an
 * admin can see failures; contracts/notification-channels.ts `GET /api/fleets/{fid}/deliveries`).
 */
export function Deliveries({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const settings = session.status === 'authenticated' ? session.auth.model.s : null;
  const deliveries = useDeliveries(fid);
  const time = (tm: number | null) =>
    tm === null || !settings
      ? '-'
      : formatDateTime(tm, settings.dateFormat, settings.timeFormat, dayjsLocale());

  const columns: DataColumn<DeliveryWire>[] = [
    { id: 'tm', header: t('fleetAdmin.notify.time'), value: (d) => d.tm, text: (d) => time(d.tm) },
    {
      id: 'channel',
      header: t('fleetAdmin.notify.channel'),
      value: (d) => d.channel,
      text: (d) => t(CHANNEL_TITLE[d.channel]),
    },
    { id: 'setup', header: t('fleetAdmin.notify.setup'), value: (d) => d.setup_name || `#${d.setup_id}` },
    {
      id: 'status',
      header: t('fleetAdmin.notify.status'),
      value: (d) => d.status,
      text: (d) => t(`fleetAdmin.notify.status_${d.status}`),
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
      cell: (d) => (
        <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }} title={d.error ?? ''}>
          {d.error ?? '-'}
        </Text>
      ),
    },
  ];
  const notThere = deliveries.error instanceof ApiError && deliveries.error.status === 404;

  return (
    <Stack gap="xs" data-testid="notify-deliveries">
      <Title order={4}>{t('fleetAdmin.notify.deliveries')}</Title>
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
          minWidth={720}
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
