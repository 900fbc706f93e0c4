import { type ComponentDetailWire, routes } from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/Loading.tsx';
import { useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import { useComponent, useComponentAction } from './api.ts';
import { type ComponentFormat, useComponentFormat } from './format.ts';
import { STATE_COLOR, useKindLabel } from './labels.ts';
import { MountDialog } from './MountDialog.tsx';
import { TreadSection } from './TreadSection.tsx';

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

function MountHistory({ c, fmt }: { c: ComponentDetailWire; fmt: ComponentFormat }) {
  const { t } = useTranslation();
  if (c.mounts.length === 0) return <Text c="dimmed">{t('components.noMounts')}</Text>;
  return (
    <Stack gap="xs" data-testid="comp-mounts">
      {c.mounts.map((m) => (
        <Card key={m.id} withBorder padding="sm">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Anchor component={Link} to={`/unit/${m.unit_id}?tab=tyres`}>
              {m.unit_name} · {m.position}
            </Anchor>
            <Text fw={600}>{fmt.distance(m.distance)}</Text>
          </Group>
          <Text size="sm" c="dimmed">
            {fmt.date(m.mounted_at)} ({fmt.odometer(m.mount_odometer)}) →{' '}
            {m.dismounted_at === null
              ? t('components.stillMounted')
              : `${fmt.date(m.dismounted_at)} (${fmt.odometer(m.dismount_odometer ?? 0)})`}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}

/** `/components/{id}`: a component with its mount history, distance, cost per km and tread readings. */
export default function ComponentScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const id = Number(useParams().id);
  const one = useComponent(fid, id);
  const act = useComponentAction(fid);
  const canManage = useCan(routes.components.mount);
  const fmt = useComponentFormat();
  const kindLabel = useKindLabel();
  const [dialog, setDialog] = useState<'mount' | 'dismount' | 'retire' | null>(null);

  if (fid === null) return null;
  if (one.isPending) return <Loading />;
  if (one.isError || !one.data)
    return (
      <Alert color="red" role="alert">
        {t('components.notFound')}
      </Alert>
    );
  const c = one.data;
  const run = async (action: 'dismount' | 'retire') => {
    await act.mutateAsync({ action, id: c.id, body: {} }).catch(() => undefined);
    setDialog(null);
  };
  return (
    <Stack>
      <Anchor component={Link} to="/components" size="sm">
        ← {t('components.title')}
      </Anchor>
      <Group justify="space-between" align="center" wrap="wrap">
        <Group gap="sm">
          <Title order={1} size="h2" data-testid="comp-title">
            {c.serial || `#${c.id}`}
          </Title>
          <Badge color={STATE_COLOR[c.state]} variant="light" data-testid="comp-state">
            {t(`components.state.${c.state}`)}
          </Badge>
        </Group>
        {canManage && (
          <Group gap="xs">
            {c.state === 'stock' && (
              <Button onClick={() => setDialog('mount')} data-testid="comp-mount">
                {t('components.action.mount')}
              </Button>
            )}
            {c.state === 'mounted' && (
              <Button onClick={() => setDialog('dismount')} data-testid="comp-dismount">
                {t('components.action.dismount')}
              </Button>
            )}
            {c.state !== 'retired' && (
              <Button
                variant="default"
                color="red"
                onClick={() => setDialog('retire')}
                data-testid="comp-retire"
              >
                {t('components.action.retire')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      <Text c="dimmed">
        {[kindLabel(c.kind), c.brand, c.model].filter(Boolean).join(' · ')}
        {c.unit_name ? ` — ${c.unit_name} · ${c.position}` : ''}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure
          label={t('components.field.distance')}
          value={fmt.distance(c.distance)}
          testId="comp-distance"
        />
        <Figure label={t('components.field.cost')} value={fmt.money(c.cost)} />
        <Figure label={t('components.field.costPerDistance')} value={fmt.perDistance(c.cost_per_km)} />
        <Figure label={t('components.field.tread')} value={fmt.depth(c.tread)} testId="comp-tread" />
      </SimpleGrid>
      <Title order={2} size="h4">
        {t('components.history')}
      </Title>
      <MountHistory c={c} fmt={fmt} />
      <TreadSection c={c} canManage={canManage} />
      {dialog === 'mount' && <MountDialog componentId={c.id} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        opened={dialog === 'dismount' || dialog === 'retire'}
        title={t(dialog === 'retire' ? 'components.action.retire' : 'components.action.dismount')}
        text={t(dialog === 'retire' ? 'components.retireConfirm' : 'components.dismountConfirm')}
        busy={act.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => void run(dialog === 'retire' ? 'retire' : 'dismount')}
      />
    </Stack>
  );
}
