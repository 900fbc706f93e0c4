import { type AssignmentCreateBody, assignmentCreateBody } from '@fleetkeep/core';
import { Modal, Select, Stack, Text } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useAssignableDrivers, type useAssignmentChanges } from './assignmentsApi.ts';

interface AssignForm {
  driver: string | null;
}

/** Where a refusal's field lands on the form: the driver (or the unit, which the dialog names). */
function assignFieldOf(path: readonly string[]): 'driver' | null {
  const key = path[0] === 'body' ? path[1] : path[0];
  return key === 'drv' || key === 'uid' || key === 'st' ? 'driver' : null;
}

/**
 * "Assign a driver" (docs/product.md "Vehicle assignments"): from now on, open, with the unit's counters
 * as the start meters. Whom: the fleet's members, those of the driver preset first.
 */
export function AssignDialog(props: {
  fid: number;
  unitId: number;
  unitName: string;
  changes: ReturnType<typeof useAssignmentChanges>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const drivers = useAssignableDrivers(props.fid, true);
  const body = (d: AssignForm) =>
    ({ uid: props.unitId, drv: d.driver === null ? 0 : Number(d.driver) }) as AssignmentCreateBody;
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<AssignForm, 'driver'>({
    initial: () => ({ driver: null }),
    schema: assignmentCreateBody,
    body,
    fieldOf: assignFieldOf,
    text: () => t('assignments.driverRequired'),
    generic: t('common.error'),
  });
  const options = [...(drivers.data ?? [])]
    .sort((a, b) => Number(b.ao) - Number(a.ao))
    .map((d) => ({ value: String(d.id), label: d.ao ? `${d.nm} · ${t('assignments.presetDriver')}` : d.nm }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    props.changes.create.mutate(body(draft), { onSuccess: props.onClose, onError: showRefusal });
  };
  return (
    <Modal opened onClose={props.onClose} title={t('assignments.assign')} centered>
      <Stack component="form" onSubmit={submit} gap="sm">
        <Text size="sm" c="dimmed">
          {t('assignments.assignHint', { unit: props.unitName })}
        </Text>
        <Select
          label={t('assignments.driver')}
          withAsterisk
          searchable
          data={options}
          value={draft.driver}
          onChange={(v) => edit({ driver: v }, 'driver')}
          error={errors.driver || undefined}
          nothingFoundMessage={t('assignments.noDrivers')}
          data-autofocus
          data-testid="assign-driver"
        />
        <FormActions
          failure={failure}
          onCancel={props.onClose}
          busy={props.changes.create.isPending}
          submitLabel={t('assignments.assign')}
          testId="assign-save"
        />
      </Stack>
    </Modal>
  );
}
