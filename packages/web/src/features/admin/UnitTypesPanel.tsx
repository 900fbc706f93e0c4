import type { UnitTypeAdminWire } from '@fleetkeep/core';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Loading.tsx';
import { useUnitTypeName } from '../../components/UnitTypeFilter.tsx';
import { useUnitTypes } from './api.ts';
import { UnitTypeIoDialog } from './UnitTypeIoDialog.tsx';

/**
 * The unit types' Teltonika IO elements (DESIGN §3, Teltonika port), for super users on /admin: which
 * IO id a type's trackers report mileage and engine hours in, when not IO 16 and the ignition. Unit
 * types are one list for the whole platform. One column of rows: alike at 375 px and 1280 px.
 */
export function UnitTypesPanel() {
  const { t } = useTranslation();
  const types = useUnitTypes(true);
  const [editing, setEditing] = useState<UnitTypeAdminWire | null>(null);
  return (
    <Stack gap="sm" component="section" aria-labelledby="admin-unit-types">
      <Title order={2} size="h3" id="admin-unit-types">
        {t('admin.teltonika.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('admin.teltonika.hint')}
      </Text>
      {types.isPending && <Loading />}
      {types.isError && (
        <Alert color="red" role="alert">
          {t('activation.loadFailed')}
        </Alert>
      )}
      {types.data && (
        <Stack
          component="ul"
          gap="xs"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          data-testid="admin-unit-types"
        >
          {types.data.map((type) => (
            <UnitTypeRow key={type.id} type={type} onEdit={() => setEditing(type)} />
          ))}
        </Stack>
      )}
      {editing && <UnitTypeIoDialog type={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function UnitTypeRow({ type, onEdit }: { type: UnitTypeAdminWire; onEdit: () => void }) {
  const { t } = useTranslation();
  const typeName = useUnitTypeName();
  const { mileage, hours } = type.tio;
  const unitWord = { m: 'metres', km: 'kilometres', s: 'seconds', h: 'hoursWord' } as const;
  const name = typeName(type.n);
  return (
    <Paper component="li" withBorder px="md" py="sm" aria-label={name}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
          <Text size="sm" c="dimmed">
            {mileage
              ? t('admin.teltonika.mileageIo', {
                  id: mileage.id,
                  unit: t(`admin.teltonika.${unitWord[mileage.unit]}`),
                })
              : t('admin.teltonika.mileageDefault')}
          </Text>
          <Text size="sm" c="dimmed">
            {hours
              ? t('admin.teltonika.hoursIo', {
                  id: hours.id,
                  unit: t(`admin.teltonika.${unitWord[hours.unit]}`),
                })
              : t('admin.teltonika.hoursDefault')}
          </Text>
        </Stack>
        <Button
          variant="default"
          size="xs"
          onClick={onEdit}
          aria-label={`${t('admin.teltonika.edit')}: ${name}`}
          // The button keeps its word whole at 375 px; the text beside it wraps instead.
          style={{ flex: 'none' }}
        >
          {t('admin.teltonika.edit')}
        </Button>
      </Group>
    </Paper>
  );
}
