import { ADMIN_ACCOUNT_NAME_MAX, type AdminAccountWire } from '@fleetkeep/core';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';
import { detailsToFields } from '../../lib/fieldErrors.ts';
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
  const [name, setName] = useState(mode.kind === 'rename' ? mode.account.n : '');
  const [parent, setParent] = useState<string | null>(
    mode.kind === 'create' && mode.parent !== null ? String(mode.parent) : null,
  );
  const [error, setError] = useState<string | null>(null);
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const busy = create.isPending || update.isPending;

  const fail = (err: unknown) => {
    if (err instanceof ApiError && err.status === 409) return setError(t('activation.nameTaken'));
    const mapped =
      err instanceof ApiError ? detailsToFields(err.details, (path) => (path[0] === 'n' ? 'n' : null)) : null;
    setError(mapped?.fields.n ?? (err instanceof Error ? err.message : t('common.error')));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = name.trim();
    if (!n) return setError(t('controls.required'));
    setError(null);
    if (mode.kind === 'rename')
      update.mutate({ id: mode.account.id, n }, { onSuccess: onClose, onError: fail });
    else
      create.mutate(
        { n, parent: parent === null ? undefined : Number(parent) },
        {
          onSuccess: (created) => {
            onCreated(created.id);
            onClose();
          },
          onError: fail,
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
          value={name}
          maxLength={ADMIN_ACCOUNT_NAME_MAX}
          error={error}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        {mode.kind === 'create' && (
          <Select
            label={t('activation.parentAccount')}
            value={parent}
            onChange={setParent}
            searchable
            data={accounts.map((a) => ({ value: String(a.id), label: a.n }))}
            placeholder={t('activation.ownAccount')}
            clearable
          />
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
