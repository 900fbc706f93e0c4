import { type AssignmentWire, formatFleetDateTime, routes } from '@fleetkeep/core';
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { dayjsLocale } from '../../i18n/index.ts';
import { useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import { AssignDialog } from './AssignDialog.tsx';
import { useAssignmentChanges, useAssignments } from './assignmentsApi.ts';
import type { ObjectRecord } from './ObjectScreen.tsx';
import { useLabels } from './useLabels.ts';

/**
 * The unit page's vehicle assignments (docs/product.md "Vehicle assignments"): who drives it now and
 * who drove it before, from when to when, with the meters at both ends. A manager (manageAssignment)
 * assigns a driver and ends the current assignment (the end meters are the unit's counters then).
 */
export function AssignmentsTab({ object }: { object: ObjectRecord }) {
  const { t } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const labels = useLabels();
  const canManage = useCan(routes.assignments.create);
  const list = useAssignments(fid, { unit: object.id });
  const changes = useAssignmentChanges(fid);
  const [assigning, setAssigning] = useState(false);
  const [ending, setEnding] = useState<AssignmentWire | null>(null);
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const timeFormat = auth?.model.s.timeFormat || 'HH:mm';
  const current = list.data?.find((a) => a.cur) ?? null;

  const columns = useMemo<DataColumn<AssignmentWire>[]>(() => {
    const when = (unix: number | null) =>
      unix === null ? '' : formatFleetDateTime(unix, labels.tz, dateFormat, timeFormat, dayjsLocale());
    const meters = (km: number | null, hours: number | null) =>
      km === null || hours === null ? '' : `${labels.distance(km)} · ${labels.engineHours(hours)}`;
    return [
      {
        id: 'driver',
        header: t('assignments.driver'),
        value: (a) => a.dn,
        cell: (a) => (
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500}>
              {a.dn}
            </Text>
            {a.cur && (
              <Badge variant="light" color="green" radius="sm" size="sm">
                {t('assignments.current')}
              </Badge>
            )}
          </Group>
        ),
        phone: 'title',
      },
      {
        id: 'st',
        header: t('assignments.start'),
        value: (a) => a.st,
        text: (a) => when(a.st),
        cell: (a) => <span style={{ whiteSpace: 'nowrap' }}>{when(a.st)}</span>,
        phone: 'detail',
      },
      {
        id: 'en',
        header: t('assignments.end'),
        value: (a) => a.en,
        text: (a) => (a.en === null ? t('assignments.open') : when(a.en)),
        cell: (a) => (
          <span style={{ whiteSpace: 'nowrap' }}>{a.en === null ? t('assignments.open') : when(a.en)}</span>
        ),
        phone: 'detail',
      },
      {
        id: 'sm',
        header: t('assignments.startMeters'),
        value: (a) => a.sm,
        text: (a) => meters(a.sm, a.seh),
        phone: 'detail',
        searchable: false,
      },
      {
        id: 'em',
        header: t('assignments.endMeters'),
        value: (a) => a.em,
        text: (a) => meters(a.em, a.eeh),
        phone: 'detail',
        searchable: false,
      },
    ];
  }, [t, labels, dateFormat, timeFormat]);

  if (fid === null) return null;
  if (list.isPending) return <Loading />;
  if (list.isError)
    return (
      <Alert color="red" role="alert">
        {t('objects.loadFailed')}
      </Alert>
    );

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text data-testid="assignment-current">
          {current ? t('assignments.drivenBy', { name: current.dn }) : t('assignments.noCurrent')}
        </Text>
        {canManage && (
          <Group gap="sm">
            {current && (
              <Button variant="default" onClick={() => setEnding(current)} data-testid="assignment-end">
                {t('assignments.endNow')}
              </Button>
            )}
            {!current && (
              <Button onClick={() => setAssigning(true)} data-testid="assignment-assign">
                {t('assignments.assign')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      <DataTable
        data={list.data}
        columns={columns}
        getRowId={(a) => String(a.id)}
        urlPrefix="assignments"
        csvName="vehicle-assignments"
        emptyText={t('assignments.empty')}
        maxHeight="60vh"
        minWidth={720}
        data-testid="assignments"
      />
      {assigning && (
        <AssignDialog
          fid={fid}
          unitId={object.id}
          unitName={object.name}
          changes={changes}
          onClose={() => setAssigning(false)}
        />
      )}
      <ConfirmDialog
        opened={ending !== null}
        title={t('assignments.endTitle')}
        text={t('assignments.endText', { name: ending?.dn ?? '' })}
        busy={changes.end.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={() => {
          if (ending)
            changes.end.mutate(
              { id: ending.id, at: Math.floor(Date.now() / 1000) },
              { onSettled: () => setEnding(null) },
            );
        }}
      />
    </Stack>
  );
}
