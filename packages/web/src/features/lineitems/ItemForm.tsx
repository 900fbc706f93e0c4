import { Limits, type LineItemWire, lineItemBody } from '@fleetkeep/core';
import { Alert, Button, Group, Paper, Stack } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../components/NumericInput.tsx';
import { RequiredInput } from '../../components/RequiredInput.tsx';
import { ButtonGroup } from '../../components/Toggles.tsx';
import { ApiError } from '../../lib/api.ts';
import type { FieldErrors } from '../../lib/editorForm.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import {
  checkedBody,
  emptyDraft,
  type ItemDraft,
  type ItemField,
  isDuplicate,
  itemFieldOf,
  KIND,
  type LibraryKind,
  type LibraryTab,
  saveErrorKey,
} from './rules.ts';

export type Save = (draft: ItemDraft, id?: number) => Promise<unknown>;

export function errorText(t: (key: string) => string, error: unknown): string {
  return t(saveErrorKey(error instanceof ApiError ? error.code : undefined));
}

export function KindControl({
  value,
  onChange,
  disabled,
}: {
  value: LibraryKind;
  onChange: (kind: LibraryKind) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <ButtonGroup
      label={t('lineitems.type')}
      value={String(value)}
      disabled={disabled}
      onChange={(v) => onChange(Number(v) as LibraryKind)}
      items={[
        { v: String(KIND.part), l: t('lineitems.part') },
        { v: String(KIND.labour), l: t('lineitems.labour') },
      ]}
    />
  );
}

/**
 * The form of one library item on the shared editor hook: the draft checked with core `lineItemBody`,
 * the duplicate name and kind as the form's own rule, a refused save on its fields (a 409 error 10 is
 * the duplicate, spec §8). `record` is the item a row edits (a change elsewhere reloads a clean edit).
 */
export function useItemForm(
  tab: LibraryTab,
  items: readonly LineItemWire[],
  editing: { id: number; version: string; draft: () => ItemDraft } | null,
) {
  const { t } = useTranslation();
  return useEditorForm<ItemDraft, ItemField>({
    initial: () => editing?.draft() ?? emptyDraft(tab),
    schema: lineItemBody,
    body: checkedBody,
    fieldOf: itemFieldOf,
    text: (problem) => (problem === 'required' ? t('controls.required') : t('lineitems.costInvalid')),
    check: (d) => (isDuplicate(d, items, editing?.id) ? { n: t('lineitems.duplicate') } : {}),
    record: editing && { version: editing.version, draft: editing.draft },
    leave: { tabParam: 'tab' },
    generic: t('lineitems.failed'),
    reword: (err, view) =>
      err.code === 10
        ? { fields: { n: t('lineitems.duplicate') }, failure: null }
        : { fields: view.fields, failure: view.failure === null ? null : t('lineitems.failed') },
  });
}

/**
 * What the alert of an item form says: the failure, else the cost's problem, else a problem of a name
 * that is typed (an empty name shows as the required alarm of its input, spec §5).
 */
export function itemAlert(
  draft: ItemDraft,
  errors: FieldErrors<ItemField>,
  failure: string | null,
): string | null {
  return failure ?? errors.c ?? (draft.n.trim() !== '' ? (errors.n ?? null) : null);
}

/** The row form at the top of a tab: name, type (parts tab), cost. */
export function AddForm({
  tab,
  items,
  save,
}: {
  tab: LibraryTab;
  items: readonly LineItemWire[];
  save: Save;
}) {
  const { t } = useTranslation();
  const { draft, errors, failure, edit, validate, showRefusal, accept, leaveWarning } = useItemForm(
    tab,
    items,
    null,
  );
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!validate()) return;
    setPending(true);
    try {
      await save(draft);
      accept(emptyDraft(tab));
      setTouched(false);
    } catch (err) {
      showRefusal(err);
    } finally {
      setPending(false);
    }
  };
  const alert = itemAlert(draft, errors, failure);
  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} data-testid={`add-${tab}`}>
      <Stack gap="xs">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <RequiredInput
            label={t('lineitems.name')}
            value={draft.n}
            maxLength={Limits.stringMax}
            touched={touched}
            onBlur={() => setTouched(true)}
            disabled={pending}
            onChange={(n) => edit({ n }, 'n')}
            style={{ flex: '1 1 12rem' }}
          />
          {tab === 'parts' && (
            <KindControl value={draft.t} disabled={pending} onChange={(k) => edit({ t: k }, 't', 'n')} />
          )}
          <NumericInput
            label={tab === 'fuel' ? t('lineitems.costPerUnit') : t('lineitems.cost')}
            value={draft.c}
            precision={3}
            maxIntegerLength={9}
            disabled={pending}
            onChange={(c) => edit({ c }, 'c')}
            style={{ flex: '0 1 9rem' }}
          />
          <Button type="submit" loading={pending}>
            {t('lineitems.add')}
          </Button>
        </Group>
        {alert && (
          <Alert color="red" role="alert" py="xs">
            {alert}
          </Alert>
        )}
      </Stack>
      {leaveWarning}
    </Paper>
  );
}
