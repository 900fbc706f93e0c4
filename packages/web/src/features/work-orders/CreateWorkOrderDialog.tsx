import { Limits, routes, workOrderCreateBody } from '@fleetkeep/core';
import { Checkbox, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { Select } from '../../components/Select.tsx';
import type { Problem } from '../../lib/coreResolver.ts';
import { useTrailers, useUnits } from '../../lib/fleetData.ts';
import { useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useAssignees, useCreateWorkOrder, useDueServices, useOpenIssues } from './api.ts';
import { type CreateDraft, createBody, objectOf } from './draft.ts';
import { toggled } from './rules.ts';

const FIELDS = ['object', 'title', 'assignee', 'issues', 'services'] as const;
type Field = (typeof FIELDS)[number];
const fieldOf = (path: readonly string[]): Field | null => {
  const head = path[0];
  if (head === 'object_type' || head === 'object_id') return 'object';
  if (head === 'title') return 'title';
  if (head === 'assignee_id') return 'assignee';
  if (head === 'issue_ids') return 'issues';
  if (head === 'service_ids') return 'services';
  return null;
};

/**
 * "New work order": the vehicle, then its open issues and what is due on it, a title and an assignee
 * (docs/product.md "Work orders"). Opened with an issue (from the issue's page, `?issue=`), the vehicle
 * and that issue are chosen already.
 */
export function CreateWorkOrderDialog({
  onClose,
  onCreated,
  initial,
}: {
  onClose: () => void;
  onCreated: (id: number) => void;
  initial?: Partial<CreateDraft>;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const units = useUnits(fid);
  const trailers = useTrailers(fid);
  const create = useCreateWorkOrder(fid);
  const assignees = useAssignees(fid, useCan(routes.workOrders.assignees));
  const text = (problem: Problem) =>
    problem === 'required' ? t('fleetAdmin.nameRequired') : t('fleetAdmin.notify.invalid');
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<CreateDraft, Field>({
    initial: () => ({ object: null, title: '', assignee: null, issues: [], services: [], ...initial }),
    schema: workOrderCreateBody,
    body: createBody,
    fieldOf,
    text,
    generic: t('common.error'),
  });
  const object = objectOf(draft.object);
  const issues = useOpenIssues(fid, object?.type ?? null, object?.id ?? null);
  const due = useDueServices(fid, object?.type ?? null, object?.id ?? null);

  const objectOptions = useMemo(
    () => [
      ...(units.data ?? []).map((u) => ({ value: `u:${u.id}`, label: u.nm })),
      ...(trailers.data ?? []).map((p) => ({ value: `t:${p.id}`, label: p.n })),
    ],
    [units.data, trailers.data],
  );
  const assigneeOptions = (assignees.data ?? []).map((u) => ({ value: String(u.id), label: u.nm }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    create.mutate(createBody(draft), { onSuccess: (wo) => onCreated(wo.id), onError: showRefusal });
  };

  return (
    <Modal opened onClose={onClose} title={t('workOrders.new')} centered size="lg" data-testid="wo-create">
      <Stack component="form" onSubmit={submit} gap="sm">
        <Select
          label={t('workOrders.field.object')}
          withAsterisk
          options={objectOptions}
          value={draft.object}
          onChange={(v) => edit({ object: v, issues: [], services: [] }, 'object')}
          error={errors.object || undefined}
          data-testid="wo-object"
        />
        <TextInput
          label={t('workOrders.field.title')}
          withAsterisk
          maxLength={Limits.stringMax}
          value={draft.title}
          onChange={(e) => edit({ title: e.currentTarget.value }, 'title')}
          error={errors.title || undefined}
          data-testid="wo-title"
        />
        {assigneeOptions.length > 0 && (
          <Select
            label={t('workOrders.field.assignee')}
            options={assigneeOptions}
            value={draft.assignee}
            clearable
            onChange={(v) => edit({ assignee: v }, 'assignee')}
            error={errors.assignee || undefined}
            data-testid="wo-assignee"
          />
        )}
        {object && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('workOrders.issues')}
            </Text>
            {(issues.data ?? []).length === 0 && (
              <Text size="sm" c="dimmed">
                {t('workOrders.noOpenIssues')}
              </Text>
            )}
            {(issues.data ?? []).map((i) => (
              <Checkbox
                key={i.id}
                label={i.title}
                checked={draft.issues.includes(i.id)}
                onChange={() => edit({ issues: toggled(draft.issues, i.id) }, 'issues')}
                data-testid={`wo-issue-${i.id}`}
              />
            ))}
            {errors.issues && (
              <Text size="sm" c="red">
                {errors.issues}
              </Text>
            )}
          </Stack>
        )}
        {object && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('workOrders.addDue')}
            </Text>
            {(due.data ?? []).length === 0 && (
              <Text size="sm" c="dimmed">
                {t('workOrders.noDue')}
              </Text>
            )}
            {(due.data ?? []).map((s) => (
              <Checkbox
                key={s.id}
                label={s.n}
                checked={draft.services.includes(s.id)}
                onChange={() => edit({ services: toggled(draft.services, s.id) }, 'services')}
                data-testid={`wo-service-${s.id}`}
              />
            ))}
          </Stack>
        )}
        <FormActions failure={failure} onCancel={onClose} busy={create.isPending} testId="wo-create-submit" />
      </Stack>
    </Modal>
  );
}
