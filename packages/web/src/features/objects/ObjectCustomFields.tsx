import type { CustomFieldValue, ObjectType } from '@fleetkeep/core';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CustomFieldsEditor } from '../../components/CustomFieldsEditor.tsx';
import { ApiError } from '../../lib/api.ts';
import { client } from '../../lib/client.ts';
import { errorsById, sameValues } from '../../lib/customFields.ts';
import { useCustomFields } from '../../lib/fleetData.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useLeaveWarning } from '../../lib/useLeaveWarning.tsx';

interface ObjectKind {
  collection: 'avl_unit' | 'driver' | 'trailer';
  /** The object's PUT with its `cf` alone. */
  save: (fid: number, id: number, cf: CustomFieldValue[]) => Promise<unknown>;
}

/** Each owner type's list collection and the PUT that saves its `cf`. */
const OBJECT: Record<ObjectType, ObjectKind> = {
  u: {
    collection: 'avl_unit',
    save: (fid: number, id: number, cf: CustomFieldValue[]) => client.fleets.updateUnit(fid, id, { cf }),
  },
  d: {
    collection: 'driver',
    save: (_fid: number, id: number, cf: CustomFieldValue[]) => client.fleets.updateDriver(id, { cf }),
  },
  t: {
    collection: 'trailer',
    save: (_fid: number, id: number, cf: CustomFieldValue[]) => client.fleets.updateTrailer(id, { cf }),
  },
};

export interface ObjectCustomFieldsProps {
  fid: number;
  ownerType: ObjectType;
  objectId: number;
  /** The object's `cf` as the server sent it. */
  values: readonly CustomFieldValue[];
  editable: boolean;
}

/**
 * The custom fields of a unit, driver or trailer on its profile (spec §3 `cf`), saved with the
 * object's PUT (spec §7 "Fleet": PUT /api/fleets/{fleetId}/units/{id}, PUT /drivers/{id},
 * PUT /trailers/{id}). Unsaved changes ask before leaving the page (spec §2).
 */
export function ObjectCustomFields({ fid, ownerType, objectId, values, editable }: ObjectCustomFieldsProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const fields = useCustomFields(fid);
  const [draft, setDraft] = useState<CustomFieldValue[]>(() => [...values]);
  const [base, setBase] = useState<readonly CustomFieldValue[]>(values);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const dirty = !sameValues(draft, base);
  const leaveWarning = useLeaveWarning(dirty, { tabParam: 'tab' });

  // New values from the server (a live event) replace the draft unless the user is editing it.
  useEffect(() => {
    if (sameValues(values, base)) return;
    setBase(values);
    if (!dirty) setDraft([...values]);
  }, [values, base, dirty]);

  const save = useMutation({
    mutationFn: (cf: CustomFieldValue[]) => OBJECT[ownerType].save(fid, objectId, cf),
    onMutate: () => {
      setErrors({});
      setFailure(null);
      setSaved(false);
    },
    onSuccess: (_reply, cf) => {
      setBase(cf);
      setSaved(true);
    },
    onError: (err, cf) => {
      const byId = err instanceof ApiError ? errorsById(cf, err.details) : {};
      setErrors(byId);
      if (Object.keys(byId).length === 0)
        setFailure(
          t('customFields.saveFailed', { reason: err instanceof ApiError ? err.reason : String(err) }),
        );
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid, OBJECT[ownerType].collection) }),
  });

  return (
    <Stack gap="sm" data-testid="object-custom-fields">
      <Title order={2} size="h4">
        {t('customFields.title')}
      </Title>
      {fields.isPending ? (
        <Text c="dimmed" size="sm">
          {t('common.loading')}
        </Text>
      ) : fields.isError ? (
        <Text c="red" size="sm">
          {t('customFields.loadFailed')}
        </Text>
      ) : (
        <CustomFieldsEditor
          ownerType={ownerType}
          fields={fields.data}
          values={draft}
          onChange={(next) => {
            setDraft(next);
            setSaved(false);
            setErrors({});
          }}
          readOnly={!editable}
          disabled={save.isPending}
          errors={errors}
        />
      )}
      {failure && (
        <Alert color="red" role="alert" py="xs">
          {failure}
        </Alert>
      )}
      {editable && (fields.data?.some((f) => f.t === ownerType) ?? false) && (
        <Group gap="sm">
          <Button
            onClick={() => save.mutate(draft)}
            loading={save.isPending}
            disabled={!dirty}
            data-testid="custom-fields-save"
          >
            {t('common.save')}
          </Button>
          <Button
            variant="default"
            onClick={() => {
              setDraft([...base]);
              setErrors({});
            }}
            disabled={!dirty || save.isPending}
          >
            {t('common.cancel')}
          </Button>
          {saved && !dirty && (
            <Text size="sm" c="teal" role="status" data-testid="custom-fields-saved">
              {t('customFields.saved')}
            </Text>
          )}
        </Group>
      )}
      {leaveWarning}
    </Stack>
  );
}
