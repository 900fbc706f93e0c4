import { routes, type WorkOrderUpdateInput, workOrderActions } from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Select } from '../../components/Select.tsx';
import { useUnits } from '../../lib/fleetData.ts';
import { useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  useAssignees,
  useUpdateWorkOrder,
  useWorkOrder,
  useWorkOrderAction,
  type WorkOrderActionName,
} from './api.ts';
import { CompleteDialog } from './CompleteDialog.tsx';
import { useFleetFormat } from './format.ts';
import { LinesSection } from './LinesSection.tsx';
import { LinksSection } from './LinksSection.tsx';
import { downtimeHours, STATUS_COLOR } from './rules.ts';

/** `/work-orders/:id`: one work order with its status actions, links, lines, completion and downtime. */
export default function WorkOrderScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const id = Number(useParams().id);
  const query = useWorkOrder(fid, id);
  const units = useUnits(fid);
  const canManage = useCan(routes.workOrders.update);
  const canAct = useCan(routes.workOrders.start);
  const assignees = useAssignees(fid, canManage);
  const update = useUpdateWorkOrder(fid, id);
  const act = useWorkOrderAction(fid, id);
  const fmt = useFleetFormat();
  const [completing, setCompleting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  if (fid === null) return null;
  if (query.isPending) return <Loading />;
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('common.error')}
      </Alert>
    );
  const wo = query.data;
  const active = workOrderActions(wo.status).length > 0;
  const editable = canManage && active;
  const busy = update.isPending || act.isPending;
  const unit = wo.object_type === 'u' ? units.data?.find((u) => u.id === wo.object_id) : undefined;
  const save = (body: WorkOrderUpdateInput) => {
    setFailure(null);
    update.mutate(body, { onError: () => setFailure(t('common.error')) });
  };
  const run = (action: WorkOrderActionName) => {
    setFailure(null);
    act.mutate(
      { action },
      { onError: () => setFailure(t('common.error')), onSettled: () => setCancelling(false) },
    );
  };
  const hours = downtimeHours(wo);
  const when = (v: number | null) => (v === null ? '—' : fmt.dateTime(v));

  return (
    <Stack data-testid="wo-page">
      <Anchor component={Link} to="/work-orders" size="sm">
        ← {t('workOrders.title')}
      </Anchor>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4}>
          <Title order={1} size="h2" data-testid="wo-heading">
            {wo.title}
          </Title>
          <Group gap="xs">
            <Badge color={STATUS_COLOR[wo.status]} variant="light" data-testid="wo-status">
              {t(`workOrders.status.${wo.status}`)}
            </Badge>
            {wo.overdue && <Badge color="red">{t('workOrders.overdue')}</Badge>}
            <Anchor component={Link} to={`/${wo.object_type === 'u' ? 'unit' : 'trailer'}/${wo.object_id}`}>
              {wo.object_name}
            </Anchor>
          </Group>
        </Stack>
        {canAct && (
          <Group gap="xs" wrap="wrap">
            {workOrderActions(wo.status).map((a) => (
              <Button
                key={a}
                variant={a === 'complete' ? 'filled' : a === 'cancel' ? 'subtle' : 'default'}
                color={a === 'cancel' ? 'red' : undefined}
                disabled={busy}
                data-testid={`wo-action-${a}`}
                onClick={() =>
                  a === 'complete' ? setCompleting(true) : a === 'cancel' ? setCancelling(true) : run(a)
                }
              >
                {t(`workOrders.action.${a}`)}
              </Button>
            ))}
          </Group>
        )}
      </Group>
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {wo.description && <Text>{wo.description}</Text>}
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          {editable ? (
            <Select
              label={t('workOrders.field.assignee')}
              options={(assignees.data ?? []).map((u) => ({ value: String(u.id), label: u.nm }))}
              value={wo.assignee ? String(wo.assignee.id) : null}
              clearable
              disabled={busy}
              onChange={(v) => save({ assignee_id: v ? Number(v) : null })}
              data-testid="wo-assignee-edit"
            />
          ) : (
            <Field label={t('workOrders.field.assignee')} value={wo.assignee?.nm ?? '—'} />
          )}
          <Field
            label={t('workOrders.field.scheduledEnd')}
            value={wo.scheduled_end === null ? '—' : fmt.date(wo.scheduled_end)}
          />
          <Field label={t('workOrders.field.actualStart')} value={when(wo.actual_start)} />
          <Field label={t('workOrders.field.actualEnd')} value={when(wo.actual_end)} />
          <Stack gap={0} justify="flex-end">
            {/* The sentence names the figure ("Downtime: 3.5 h"): no label above it. */}
            <Text data-testid="wo-downtime">
              {hours === null ? '—' : t('workOrders.notify.downtime', { value: fmt.number(hours) })}
            </Text>
          </Stack>
          {wo.status === 'completed' && wo.mileage !== null && (
            <Field label={t('workOrders.field.mileage')} value={fmt.number(wo.mileage)} testId="wo-meter" />
          )}
        </SimpleGrid>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <LinksSection
          wo={wo}
          fid={fid}
          editable={editable}
          busy={busy}
          onIssues={(issue_ids) => save({ issue_ids })}
          onServices={(service_ids) => save({ service_ids })}
        />
        <LinesSection
          wo={wo}
          fid={fid}
          editable={editable}
          busy={busy}
          fmt={fmt}
          onSave={(li) => save({ li })}
        />
      </SimpleGrid>
      {completing && (
        <CompleteDialog
          wo={wo}
          counters={unit ? { mileage: unit.cnm, engineHours: unit.cneh } : null}
          busy={act.isPending}
          onCancel={() => setCompleting(false)}
          onComplete={async (meter) => {
            await act.mutateAsync({ action: 'complete', meter });
            setCompleting(false);
          }}
        />
      )}
      <ConfirmDialog
        opened={cancelling}
        title={t('workOrders.action.cancel')}
        text={t('workOrders.confirmCancel')}
        busy={act.isPending}
        onCancel={() => setCancelling(false)}
        onConfirm={() => run('cancel')}
      />
    </Stack>
  );
}

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text data-testid={testId}>{value}</Text>
    </Stack>
  );
}
