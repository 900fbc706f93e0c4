import type { WorkOrderWire } from '@fleetkeep/core';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ServiceStatusBadge } from '../../components/ServiceStatus.tsx';
import { useDueServices, useOpenIssues } from './api.ts';

/**
 * The linked issues and services of a work order, each removable while it is unfinished ("Remove from
 * work order": the issue or service stays, only the link goes), and what may be added: the object's open issues, and "what is due" (its Due, overdue and In progress services).
 */
export function LinksSection({
  wo,
  fid,
  editable,
  busy,
  onIssues,
  onServices,
}: {
  wo: WorkOrderWire;
  fid: number;
  editable: boolean;
  busy: boolean;
  onIssues: (ids: number[]) => void;
  onServices: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const open = useOpenIssues(editable ? fid : null, wo.object_type, wo.object_id);
  const due = useDueServices(editable ? fid : null, wo.object_type, wo.object_id);
  const issueIds = wo.issues.map((i) => i.id);
  const serviceIds = wo.services.map((s) => s.id);
  const addableIssues = (open.data ?? []).filter((i) => !issueIds.includes(i.id));
  const addableServices = (due.data ?? []).filter((s) => !serviceIds.includes(s.id));
  const serviceBadge = (f: number) => <ServiceStatusBadge f={f} size="sm" />;

  return (
    <Stack gap="md">
      <Stack gap="xs" data-testid="wo-issues">
        <Title order={2} size="h4">
          {t('workOrders.issues')}
        </Title>
        {wo.issues.map((i) => (
          <Group key={i.id} justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              {i.title}
            </Text>
            {editable && (
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                disabled={busy}
                style={{ flexShrink: 0 }}
                aria-label={`${t('workOrders.removeLink')}: ${i.title}`}
                data-testid={`wo-remove-issue-${i.id}`}
                onClick={() => onIssues(issueIds.filter((id) => id !== i.id))}
              >
                {t('workOrders.removeLink')}
              </Button>
            )}
          </Group>
        ))}
        {editable &&
          addableIssues.map((i) => (
            <Group key={i.id} justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" c="dimmed">
                {i.title}
              </Text>
              <Button
                size="compact-xs"
                variant="light"
                disabled={busy}
                data-testid={`wo-add-issue-${i.id}`}
                onClick={() => onIssues([...issueIds, i.id])}
              >
                {t('workOrders.addIssues')}
              </Button>
            </Group>
          ))}
        {wo.issues.length === 0 && addableIssues.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('workOrders.noOpenIssues')}
          </Text>
        )}
      </Stack>
      <Stack gap="xs" data-testid="wo-services">
        <Title order={2} size="h4">
          {t('workOrders.services')}
        </Title>
        {wo.services.map((s) => (
          <Group key={s.id} justify="space-between" wrap="nowrap" gap="xs">
            <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
              <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {s.n}
              </Text>
              {serviceBadge(s.f)}
            </Group>
            {editable && (
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                disabled={busy}
                style={{ flexShrink: 0 }}
                aria-label={`${t('workOrders.removeLink')}: ${s.n}`}
                data-testid={`wo-remove-service-${s.id}`}
                onClick={() => onServices(serviceIds.filter((id) => id !== s.id))}
              >
                {t('workOrders.removeLink')}
              </Button>
            )}
          </Group>
        ))}
        {editable &&
          addableServices.map((s) => (
            <Group key={s.id} justify="space-between" wrap="nowrap" gap="xs">
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" c="dimmed">
                  {s.n}
                </Text>
                {serviceBadge(s.f)}
              </Group>
              <Button
                size="compact-xs"
                variant="light"
                disabled={busy}
                data-testid={`wo-add-service-${s.id}`}
                onClick={() => onServices([...serviceIds, s.id])}
              >
                {t('workOrders.addDue')}
              </Button>
            </Group>
          ))}
        {editable && wo.services.length === 0 && addableServices.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('workOrders.noDue')}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
