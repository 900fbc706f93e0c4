import { routes, WORK_ORDER_STATUSES, type WorkOrderWire } from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Checkbox, Group, Stack, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { Select } from '../../components/Select.tsx';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { useWorkOrders } from './api.ts';
import { CreateWorkOrderDialog } from './CreateWorkOrderDialog.tsx';
import { formatFleetDate, useFleetFormat } from './format.ts';
import { listQuery, STATUS_COLOR, statusFilterOf } from './rules.ts';

/** `/work-orders`: the fleet's work orders, filtered by status and overdue in the URL (docs/product.md). */
export default function WorkOrdersScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const [params, patchParams] = useUrlParams();
  const status = statusFilterOf(params.get('status'));
  const overdue = params.get('overdue') === '1';
  const list = useWorkOrders(fid, listQuery(status, overdue));
  const canCreate = useCan(routes.workOrders.create);
  // `?object=u:12&issue=5`: the issue page's "Create work order" opens the dialog with both chosen.
  const presetObject = params.get('object');
  const presetIssue = Number(params.get('issue'));
  const [creating, setCreating] = useState(presetObject !== null);
  const fmt = useFleetFormat();

  const columns = useMemo<DataColumn<WorkOrderWire>[]>(
    () => [
      {
        id: 'title',
        header: t('workOrders.field.title'),
        value: (w) => w.title,
        cell: (w) => (
          <Anchor component={Link} to={`/work-orders/${w.id}`} data-testid={`wo-link-${w.id}`}>
            {w.title}
          </Anchor>
        ),
        phone: 'title',
      },
      {
        id: 'object',
        header: t('workOrders.field.object'),
        value: (w) => w.object_name,
        phone: 'detail',
      },
      {
        id: 'status',
        header: t('services.status'),
        value: (w) => w.status,
        text: (w) => t(`workOrders.status.${w.status}`),
        cell: (w) => (
          <Group gap={4} wrap="nowrap">
            <Badge color={STATUS_COLOR[w.status]} variant="light">
              {t(`workOrders.status.${w.status}`)}
            </Badge>
            {w.overdue && (
              <Badge color="red" variant="filled">
                {t('workOrders.overdue')}
              </Badge>
            )}
          </Group>
        ),
        phone: 'detail',
      },
      {
        id: 'assignee',
        header: t('workOrders.field.assignee'),
        value: (w) => w.assignee?.nm ?? '',
        phone: 'detail',
      },
      {
        id: 'end',
        header: t('workOrders.field.scheduledEnd'),
        value: (w) => w.scheduled_end,
        text: (w) => (w.scheduled_end === null ? '' : formatFleetDate(fmt, w.scheduled_end)),
        phone: 'detail',
      },
      {
        id: 'cost',
        header: t('workOrders.total'),
        value: (w) => w.total_cost,
        text: (w) => fmt.money(w.total_cost),
        csv: (w) => w.total_cost,
      },
    ],
    [t, fmt],
  );

  if (fid === null) return null;
  const statusOptions = [
    { value: 'active', label: t('workOrders.filter.active') },
    { value: 'all', label: t('workOrders.filter.all') },
    ...WORK_ORDER_STATUSES.map((s) => ({ value: s, label: t(`workOrders.status.${s}`) })),
  ];
  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('workOrders.title')}
        </Title>
        {canCreate && (
          <Button onClick={() => setCreating(true)} data-testid="wo-new">
            {t('workOrders.new')}
          </Button>
        )}
      </Group>
      {list.isError ? (
        <Alert color="red" role="alert">
          {t('common.error')}
        </Alert>
      ) : (
        <DataTable
          data={list.data ?? []}
          columns={columns}
          getRowId={(w) => String(w.id)}
          csvName="work-orders"
          emptyText={t('workOrders.empty')}
          minWidth={720}
          activeFilters={(status === 'active' ? 0 : 1) + (overdue ? 1 : 0)}
          filters={
            <Group gap="sm" align="flex-end" wrap="wrap">
              <Select
                label={t('services.status')}
                options={statusOptions}
                value={status}
                searchable={false}
                allowDeselect={false}
                w={200}
                data-testid="wo-status-filter"
                onChange={(v) =>
                  patchParams((p) => {
                    if (!v || v === 'active') p.delete('status');
                    else p.set('status', v);
                    return p;
                  })
                }
              />
              <Checkbox
                label={t('workOrders.filter.overdue')}
                checked={overdue}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  patchParams((p) => {
                    if (on) p.set('overdue', '1');
                    else p.delete('overdue');
                    return p;
                  });
                }}
              />
            </Group>
          }
          data-testid="wo-list"
        />
      )}
      {creating && (
        <CreateWorkOrderDialog
          initial={
            presetObject ? { object: presetObject, issues: presetIssue > 0 ? [presetIssue] : [] } : undefined
          }
          onClose={() => setCreating(false)}
          onCreated={(id) => navigate(`/work-orders/${id}`)}
        />
      )}
    </Stack>
  );
}
