import { routes } from '@fleetkeep/core';
import { Divider, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../components/Select.tsx';
import { ApiError } from '../../lib/api.ts';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useSession } from '../../lib/session.ts';
import { UNKNOWN_TYPE } from '../../lib/unitTypes.ts';
import { useCan } from '../../lib/useCan.ts';
import { ObjectCustomFields } from './ObjectCustomFields.tsx';
import type { ObjectRecord } from './ObjectScreen.tsx';
import { KIND_INFO } from './rules.ts';
import { useLabels } from './useLabels.ts';
import { VehicleSection } from './VehicleSection.tsx';

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Text data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {value || '-'}
      </Text>
    </div>
  );
}

/** The profile tab: the object's fields from the wire; a unit's type is editable with the rights. */
export function ProfileTab({ object }: { object: ObjectRecord }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  // As the server's PUT /fleets/{fid}/units/{id}: admin or maintenance managers (need object.edit).
  const editable = useCan(routes.fleets.updateUnit);
  const labels = useLabels();
  const [error, setError] = useState<string | null>(null);
  const unit = object.unit;
  const person = object.person;

  const setType = useMutation({
    mutationFn: (ut: number | null) => client.fleets.updateUnit(fid ?? 0, object.id, { ut }),
    onMutate: () => setError(null),
    onError: (err) => setError(err instanceof ApiError ? err.reason : t('objects.saveFailed')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid ?? 0, 'avl_unit') }),
  });

  return (
    <Paper withBorder p="md" radius="sm" maw={720}>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Field label={t('objects.name')} value={object.name} testId="profile-name" />
          {unit && <Field label={t('objects.deviceId')} value={unit.uid ?? ''} />}
          {unit &&
            (editable ? (
              <Select
                label={t('objects.unitType')}
                options={labels.typeOptions}
                value={unit.ut === null || unit.ut === undefined ? UNKNOWN_TYPE : String(unit.ut)}
                allowDeselect={false}
                disabled={setType.isPending}
                error={error}
                onChange={(v) => {
                  if (v === null) return;
                  setType.mutate(v === UNKNOWN_TYPE ? null : Number(v));
                }}
                data-testid="profile-unit-type"
              />
            ) : (
              <Field
                label={t('objects.unitType')}
                value={labels.typeName(unit.ut)}
                testId="profile-unit-type"
              />
            ))}
          {unit && <Field label={t('objects.totalMileage')} value={labels.distance(unit.cnm ?? 0)} />}
          {unit && <Field label={t('objects.totalEngineHours')} value={labels.engineHours(unit.cneh ?? 0)} />}
          {person && <Field label={t('objects.description')} value={person.ds ?? ''} />}
          {person && <Field label={t('objects.code')} value={person.c ?? ''} />}
          <Field
            label={t('objects.state')}
            value={t(object.inService ? 'objects.state_inService' : 'objects.state_active')}
          />
        </SimpleGrid>
        {/* The vehicle profile (docs/product.md "The vehicle profile"). */}
        {unit && fid !== null && (
          <>
            <Divider />
            <VehicleSection
              key={`vehicle:${object.id}`}
              fid={fid}
              fleetFm={auth?.fleets.find((f) => f.id === fid)?.fm ?? 1}
              unit={unit}
              editable={editable}
            />
          </>
        )}
        {/* customfields: the object's custom field values, editable with the unit-type rule. */}
        {fid !== null && (
          <>
            <Divider />
            <ObjectCustomFields
              key={`${object.kind}:${object.id}`}
              fid={fid}
              ownerType={KIND_INFO[object.kind].t}
              objectId={object.id}
              values={(unit ?? person)?.cf ?? []}
              editable={editable}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
