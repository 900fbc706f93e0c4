import { axleLayout, type ComponentWire, routes, TYRE_KIND } from '@fleetkeep/core';
import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import { AxleDiagram } from './AxleDiagram.tsx';
import { useComponents } from './api.ts';
import { useComponentFormat } from './format.ts';
import { useKindLabel } from './labels.ts';
import { MountDialog } from './MountDialog.tsx';

/**
 * The "Tyres" tab of a unit's page (composed by the app's routes into features/objects): the axle
 * diagram drawn for the unit type, a free position opening "Mount" with the tyres in stock, a mounted
 * one opening its page; below it the other components mounted on the unit.
 */
export function TyresTab({ unitId, unitTypeId }: { unitId: number; unitTypeId: number | null }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const list = useComponents(fid, { unit_id: unitId });
  const canMount = useCan(routes.components.mount);
  const fmt = useComponentFormat();
  const kindLabel = useKindLabel();
  const [mounting, setMounting] = useState<string | null>(null);
  const layout = useMemo(() => axleLayout(unitTypeId), [unitTypeId]);
  const mounted = useMemo(() => {
    const map = new Map<string, ComponentWire>();
    for (const c of list.data ?? []) if (c.kind === TYRE_KIND && c.position) map.set(c.position, c);
    return map;
  }, [list.data]);
  const others = (list.data ?? []).filter((c) => c.kind !== TYRE_KIND);
  const pick = (position: string) => {
    const c = mounted.get(position);
    if (c) navigate(`/components/${c.id}`);
    else if (canMount) setMounting(position);
  };
  return (
    <Stack>
      <Group align="flex-start" gap="xl" wrap="wrap">
        <AxleDiagram layout={layout} mounted={mounted} onPick={pick} />
        <Stack gap={4} style={{ flex: '1 1 240px' }}>
          {[...mounted.values()]
            .sort((a, b) => (a.position ?? '').localeCompare(b.position ?? ''))
            .map((c) => (
              <Text key={c.id} size="sm">
                <b>{c.position}</b>{' '}
                <Anchor component={Link} to={`/components/${c.id}`}>
                  {c.serial || `#${c.id}`}
                </Anchor>{' '}
                · {fmt.distance(c.distance)} · {fmt.depth(c.tread)}
              </Text>
            ))}
          {mounted.size === 0 && <Text c="dimmed">{t('components.noTyres')}</Text>}
          {canMount && (
            <Text size="sm" c="dimmed">
              {t('components.diagramHint')}
            </Text>
          )}
        </Stack>
      </Group>
      {others.length > 0 && (
        <Stack gap="xs">
          {others.map((c) => (
            <Card key={c.id} withBorder padding="xs">
              <Anchor component={Link} to={`/components/${c.id}`}>
                {kindLabel(c.kind)} · {c.serial || `#${c.id}`}
              </Anchor>{' '}
              <Text span size="sm" c="dimmed">
                {c.position} · {fmt.distance(c.distance)}
              </Text>
            </Card>
          ))}
        </Stack>
      )}
      {mounting !== null && (
        <MountDialog unitId={unitId} position={mounting} onClose={() => setMounting(null)} />
      )}
    </Stack>
  );
}
