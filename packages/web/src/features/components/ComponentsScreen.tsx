import { COMPONENT_STATES, type ComponentState, type ComponentWire, routes } from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Group, Stack, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { Select } from '../../components/Select.tsx';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { useComponents, useKinds } from './api.ts';
import { CreateComponentDialog } from './CreateComponentDialog.tsx';
import { useComponentFormat } from './format.ts';
import { STATE_COLOR, useKindLabel } from './labels.ts';
import { ThresholdSetting } from './ThresholdSetting.tsx';

const stateOf = (text: string | null): ComponentState | undefined =>
  (COMPONENT_STATES as readonly string[]).includes(text ?? '') ? (text as ComponentState) : undefined;

/** `/components`: the fleet's tyres, batteries and own kinds, filtered by kind and state in the URL. */
export default function ComponentsScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const [params, patchParams] = useUrlParams();
  const kind = params.get('kind') ?? undefined;
  const state = stateOf(params.get('state'));
  const list = useComponents(fid, { kind, state });
  const kinds = useKinds(fid);
  const kindLabel = useKindLabel();
  const canCreate = useCan(routes.components.create);
  const [creating, setCreating] = useState(false);
  const fmt = useComponentFormat();

  const columns = useMemo<DataColumn<ComponentWire>[]>(
    () => [
      {
        id: 'serial',
        header: t('components.field.serial'),
        value: (c) => c.serial || `#${c.id}`,
        cell: (c) => (
          <Anchor component={Link} to={`/components/${c.id}`} data-testid={`comp-link-${c.id}`}>
            {c.serial || `#${c.id}`}
          </Anchor>
        ),
        phone: 'title',
      },
      { id: 'kind', header: t('components.field.kind'), value: (c) => kindLabel(c.kind), phone: 'detail' },
      {
        id: 'brand',
        header: t('components.field.brand'),
        value: (c) => [c.brand, c.model].filter(Boolean).join(' '),
        phone: 'detail',
      },
      {
        id: 'state',
        header: t('components.field.state'),
        value: (c) => c.state,
        text: (c) => t(`components.state.${c.state}`),
        cell: (c) => (
          <Group gap={4} wrap="nowrap">
            <Badge color={STATE_COLOR[c.state]} variant="light">
              {t(`components.state.${c.state}`)}
            </Badge>
            {c.tread_low && (
              <Badge color="red" variant="filled">
                {t('components.treadLow')}
              </Badge>
            )}
          </Group>
        ),
        phone: 'end',
      },
      {
        id: 'unit',
        header: t('components.field.mountedOn'),
        value: (c) => (c.unit_name ? `${c.unit_name} · ${c.position}` : ''),
        phone: 'detail',
      },
      {
        id: 'distance',
        header: t('components.field.distance'),
        value: (c) => c.distance,
        text: (c) => fmt.distance(c.distance),
        csv: (c) => c.distance,
        phone: 'detail',
      },
      {
        id: 'perKm',
        header: t('components.field.costPerDistance'),
        value: (c) => c.cost_per_km,
        text: (c) => fmt.perDistance(c.cost_per_km),
        csv: (c) => c.cost_per_km,
      },
      {
        id: 'tread',
        header: t('components.field.tread'),
        value: (c) => c.tread,
        text: (c) => fmt.depth(c.tread),
        csv: (c) => c.tread,
      },
    ],
    [t, fmt, kindLabel],
  );

  if (fid === null) return null;
  const patch = (name: string, value: string | null) =>
    patchParams((p) => {
      if (!value) p.delete(name);
      else p.set(name, value);
      return p;
    });
  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('components.title')}
        </Title>
        {canCreate && (
          <Button onClick={() => setCreating(true)} data-testid="comp-new">
            {t('components.new')}
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
          getRowId={(c) => String(c.id)}
          csvName="components"
          emptyText={t('components.empty')}
          minWidth={860}
          activeFilters={(kind ? 1 : 0) + (state ? 1 : 0)}
          filters={
            <Group gap="sm" align="flex-end" wrap="wrap">
              <Select
                label={t('components.field.kind')}
                options={(kinds.data ?? []).map((k) => ({ value: k, label: kindLabel(k) }))}
                value={kind ?? null}
                searchable={false}
                w={200}
                data-testid="comp-kind-filter"
                onChange={(v) => patch('kind', v)}
              />
              <Select
                label={t('components.field.state')}
                options={COMPONENT_STATES.map((s) => ({ value: s, label: t(`components.state.${s}`) }))}
                value={state ?? null}
                searchable={false}
                w={200}
                data-testid="comp-state-filter"
                onChange={(v) => patch('state', v)}
              />
            </Group>
          }
          data-testid="comp-list"
        />
      )}
      <ThresholdSetting fid={fid} />
      {creating && (
        <CreateComponentDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => navigate(`/components/${id}`)}
        />
      )}
    </Stack>
  );
}
