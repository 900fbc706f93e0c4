import {
  ADMIN_ACCOUNT_NAME_MAX,
  type AdminAccountWire,
  adminAccountBody,
  adminAccountCreateBody,
} from '@fleetkeep/core';
import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useCreateAccount, useUpdateAccount } from './api.ts';

/** What the account dialog does: a new account below `parent`, or renaming `account`. */
export type AccountDialogMode =
  | { kind: 'create'; parent: number | null }
  | { kind: 'rename'; account: AdminAccountWire };

/** New account (name, parent preselected) or rename; a sibling with the name is a 409 on the name. */
export function AccountDialog({
  mode,
  accounts,
  onClose,
  onCreated,
}: {
  mode: AccountDialogMode;
  accounts: readonly AdminAccountWire[];
  onClose: () => void;
  /** A new account was created (the screen selects it). */
  onCreated: (id: number) => void;
}) {
  const { t } = useTranslation();
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<
    { n: string; parent: string | null },
    'n'
  >({
    initial: () => ({
      n: mode.kind === 'rename' ? mode.account.n : '',
      parent: mode.kind === 'create' && mode.parent !== null ? String(mode.parent) : null,
    }),
    schema: mode.kind === 'rename' ? adminAccountBody : adminAccountCreateBody,
    body: (d) => ({ n: d.n.trim() }),
    fieldOf: (path) => (path[0] === 'n' ? 'n' : null),
    text: (problem) => (problem === 'required' ? t('controls.required') : t('fleetAdmin.nameTooLong')),
    generic: t('common.error'),
    // Every refusal is said on the name; a 409 is a sibling with the name, in the user's language.
    reword: (err, view) => ({
      fields: {
        n: err.status === 409 ? t('activation.nameTaken') : (view.fields.n ?? view.failure ?? err.reason),
      },
      failure: null,
    }),
  });
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const busy = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    const n = draft.n.trim();
    if (mode.kind === 'rename')
      update.mutate({ id: mode.account.id, n }, { onSuccess: onClose, onError: showRefusal });
    else
      create.mutate(
        { n, parent: draft.parent === null ? undefined : Number(draft.parent) },
        {
          onSuccess: (created) => {
            onCreated(created.id);
            onClose();
          },
          onError: showRefusal,
        },
      );
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={mode.kind === 'rename' ? t('activation.renameAccount') : t('activation.newAccount')}
      centered
    >
      <Stack component="form" onSubmit={submit}>
        <TextInput
          label={t('activation.accountName')}
          required
          data-autofocus
          value={draft.n}
          maxLength={ADMIN_ACCOUNT_NAME_MAX}
          error={errors.n}
          onChange={(e) => edit({ n: e.currentTarget.value }, 'n')}
        />
        {mode.kind === 'create' && (
          <Select
            label={t('activation.parentAccount')}
            value={draft.parent}
            onChange={(parent) => edit({ parent })}
            searchable
            data={accounts.map((a) => ({ value: String(a.id), label: a.n }))}
            placeholder={t('activation.ownAccount')}
            clearable
          />
        )}
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
