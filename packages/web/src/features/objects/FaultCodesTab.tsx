import { type FaultCodeWire, routes } from '@fleetkeep/core';
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { fleetTime } from '../../lib/fleetTime.ts';
import { useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import { useClearFaultCode, useFaultCodes } from './faultCodesApi.ts';
import type { ObjectRecord } from './ObjectScreen.tsx';
import { useLabels } from './useLabels.ts';

/**
 * The unit page's fault codes (DTC; core contracts/fault-codes.ts): code, first and last seen, how many
 * readings reported it, active or cleared (by whom, when); active codes first. A manager
 * (manageService) clears an active code (confirmed); the list follows live events.
 */
export function FaultCodesTab({ object }: { object: ObjectRecord }) {
  const { t } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const labels = useLabels();
  const canClear = useCan(routes.faultCodes.clear);
  const codes = useFaultCodes(fid, object.id);
  const clear = useClearFaultCode(fid, object.id);
  const [clearing, setClearing] = useState<FaultCodeWire | null>(null);
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const timeFormat = auth?.model.s.timeFormat || 'HH:mm';

  const columns = useMemo<DataColumn<FaultCodeWire>[]>(() => {
    // One clock: the fleet's, its zone named when the browser's differs (docs/product.md).
    const when = (unix: number) => fleetTime(unix, labels.tz, { dateFormat, timeFormat });
    const state = (c: FaultCodeWire) => (c.ca === null ? t('faultCodes.active') : t('faultCodes.cleared'));
    return [
      {
        id: 'code',
        header: t('faultCodes.code'),
        value: (c) => c.code,
        text: (c) => (c.crit ? `${c.code} (${t('faultCodes.isCritical')})` : c.code),
        cell: (c) => (
          <Group gap={6} wrap="nowrap">
            <Text size="sm" ff="monospace">
              {c.code}
            </Text>
            {c.crit && (
              <Badge color="red" variant="filled" radius="sm" size="sm" data-testid="fault-critical">
                {t('faultCodes.isCritical')}
              </Badge>
            )}
          </Group>
        ),
        phone: 'title',
      },
      {
        id: 'fs',
        header: t('faultCodes.firstSeen'),
        value: (c) => c.fs,
        text: (c) => when(c.fs),
        cell: (c) => <span style={{ whiteSpace: 'nowrap' }}>{when(c.fs)}</span>,
        phone: 'detail',
      },
      {
        id: 'ls',
        header: t('faultCodes.lastSeen'),
        value: (c) => c.ls,
        text: (c) => when(c.ls),
        cell: (c) => <span style={{ whiteSpace: 'nowrap' }}>{when(c.ls)}</span>,
        phone: 'detail',
      },
      { id: 'n', header: t('faultCodes.count'), value: (c) => c.n, phone: 'detail' },
      {
        id: 'st',
        header: t('objects.state'),
        value: state,
        text: (c) =>
          c.ca === null
            ? state(c)
            : [state(c), c.cb ? t('faultCodes.clearedBy', { name: c.cb.nm }) : '', when(c.ca)]
                .filter(Boolean)
                .join(' '),
        cell: (c) => (
          <Stack gap={2}>
            <Badge
              variant="light"
              color={c.ca === null ? 'red' : 'gray'}
              radius="sm"
              data-testid={`fault-state-${c.ca === null ? 'active' : 'cleared'}`}
            >
              {state(c)}
            </Badge>
            {c.ca !== null && (
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {[c.cb ? t('faultCodes.clearedBy', { name: c.cb.nm }) : '', when(c.ca)]
                  .filter(Boolean)
                  .join(' ')}
              </Text>
            )}
          </Stack>
        ),
        phone: 'detail',
      },
      ...(canClear
        ? [
            {
              id: 'actions',
              header: t('faultCodes.clear'),
              hiddenHeader: true,
              exported: false,
              sortable: false,
              searchable: false,
              value: () => null,
              cell: (c: FaultCodeWire) =>
                c.ca === null ? (
                  <Button size="xs" variant="light" onClick={() => setClearing(c)} data-testid="fault-clear">
                    {t('faultCodes.clear')}
                  </Button>
                ) : null,
              phone: 'end' as const,
            },
          ]
        : []),
    ];
  }, [t, labels, dateFormat, timeFormat, canClear]);

  if (codes.isPending) return <Loading />;
  if (codes.isError)
    return (
      <Alert color="red" role="alert">
        {t('objects.loadFailed')}
      </Alert>
    );

  return (
    <>
      <DataTable
        data={codes.data}
        columns={columns}
        getRowId={(c) => String(c.id)}
        urlPrefix="faults"
        csvName="fault-codes"
        emptyText={t('faultCodes.empty')}
        maxHeight="60vh"
        minWidth={720}
        data-testid="fault-codes"
      />
      <ConfirmDialog
        opened={clearing !== null}
        title={t('faultCodes.clearTitle')}
        text={t('faultCodes.clearText', { code: clearing?.code ?? '' })}
        busy={clear.isPending}
        onCancel={() => setClearing(null)}
        onConfirm={() => {
          if (clearing) clear.mutate(clearing.id, { onSettled: () => setClearing(null) });
        }}
      />
    </>
  );
}
