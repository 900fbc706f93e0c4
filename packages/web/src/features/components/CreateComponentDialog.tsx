import { componentCreateBody } from '@fleetkeep/core';
import { Modal, Stack, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { NumericInput } from '../../components/NumericInput.tsx';
import { Select } from '../../components/Select.tsx';
import { useSession } from '../../lib/session.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useCreateComponent, useKinds } from './api.ts';
import { useKindLabel } from './labels.ts';

interface Draft {
  kind: string;
  serial: string;
  brand: string;
  model: string;
  cost: string;
}
type Field = keyof Draft;
const FIELDS: readonly Field[] = ['kind', 'serial', 'brand', 'model', 'cost'];
const fieldOf = (path: readonly string[]): Field | null =>
  (FIELDS as readonly string[]).includes(path[0] ?? '') ? (path[0] as Field) : null;

const bodyOf = (d: Draft) => ({
  kind: d.kind,
  serial: d.serial,
  brand: d.brand,
  model: d.model,
  ...(d.cost.trim() === '' ? {} : { cost: d.cost }),
});

/** "New component": its kind, serial or DOT code, brand, model and cost; it starts in stock. */
export function CreateComponentDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const kinds = useKinds(fid);
  const kindLabel = useKindLabel();
  const create = useCreateComponent(fid);
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<Draft, Field>({
    initial: () => ({ kind: 'tyre', serial: '', brand: '', model: '', cost: '' }),
    schema: componentCreateBody,
    body: bodyOf,
    fieldOf,
    text: () => t('fleetAdmin.notify.invalid'),
    generic: t('common.error'),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    try {
      const made = await create.mutateAsync(bodyOf(draft));
      onCreated(made.id);
    } catch (err) {
      showRefusal(err);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('components.new')} centered data-testid="comp-create-dialog">
      <Stack component="form" onSubmit={(e) => void submit(e)} gap="sm">
        <Select
          label={t('components.field.kind')}
          options={(kinds.data ?? ['tyre', 'battery']).map((k) => ({ value: k, label: kindLabel(k) }))}
          value={draft.kind}
          allowDeselect={false}
          onChange={(kind) => edit({ kind: kind ?? 'tyre' }, 'kind')}
          error={errors.kind || undefined}
          data-testid="comp-kind"
        />
        <TextInput
          label={t('components.field.serial')}
          value={draft.serial}
          onChange={(e) => edit({ serial: e.currentTarget.value }, 'serial')}
          error={errors.serial || undefined}
          data-testid="comp-serial"
        />
        <TextInput
          label={t('components.field.brand')}
          value={draft.brand}
          onChange={(e) => edit({ brand: e.currentTarget.value }, 'brand')}
          error={errors.brand || undefined}
          data-testid="comp-brand"
        />
        <TextInput
          label={t('components.field.model')}
          value={draft.model}
          onChange={(e) => edit({ model: e.currentTarget.value }, 'model')}
          error={errors.model || undefined}
        />
        <NumericInput
          label={t('components.field.cost')}
          value={draft.cost}
          precision={3}
          onChange={(cost) => edit({ cost }, 'cost')}
          error={errors.cost || undefined}
          data-testid="comp-cost"
        />
        <FormActions
          failure={failure}
          onCancel={onClose}
          busy={create.isPending}
          submitLabel={t('components.create')}
          testId="comp-create-submit"
        />
      </Stack>
    </Modal>
  );
}
