import {
  type AdminUserWire,
  adminUserCreateBody,
  adminUserPasswordBody,
  adminUserUpdateBody,
  LANGUAGES,
  type Language,
  LOGIN_NAME_MAX,
  PASSWORD_MIN_LENGTH,
  USER_FULL_NAME_MAX,
} from '@fleetkeep/core';
import { Alert, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EMPTY_NEW_PASSWORD,
  type NewPassword,
  NewPasswordFields,
  newPasswordErrors,
} from '../../components/NewPasswordFields.tsx';
import { LANGUAGE_NAMES } from '../../i18n/languages.ts';
import type { Problem } from '../../lib/coreResolver.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useCreateUser, useSetPassword, useUpdateUser } from './api.ts';

const FIELDS = ['nm', 'n', 'lang', 'admin', 'active', 'password', 'repeat'] as const;
type Field = (typeof FIELDS)[number];
const fieldOf = (path: readonly string[]): Field | null =>
  FIELDS.includes(path[0] as Field) ? (path[0] as Field) : null;

interface UserDraft extends NewPassword {
  nm: string;
  n: string;
  lang: Language;
  admin: boolean;
  active: boolean;
}

/** The core contract's problems of the user and password dialogs, in the user's language. */
const problemText =
  (t: TFunction) =>
  (problem: Problem, field: Field, limit: number | null): string => {
    if (field === 'password') return t('newPassword.tooShort', { min: PASSWORD_MIN_LENGTH });
    if (problem === 'required') return t('controls.required');
    if (problem === 'tooLong') return t('fleetAdmin.objects.tooLong', { max: limit });
    return t('fleetAdmin.notify.invalid');
  };

/** New user of an account, or editing one (login, full name, language, admin, active). */
export function UserDialog({
  accountId,
  user,
  onClose,
}: {
  accountId: number;
  user: AdminUserWire | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fields = (d: UserDraft) => ({
    nm: d.nm.trim(),
    n: d.n.trim(),
    lang: d.lang,
    admin: d.admin ? (1 as const) : (0 as const),
  });
  const updateBody = (d: UserDraft) => ({ ...fields(d), active: d.active ? (1 as const) : (0 as const) });
  const createBody = (d: UserDraft) => ({ ...fields(d), password: d.password });
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<UserDraft, Field>({
    initial: () => ({
      nm: user?.nm ?? '',
      n: user?.n ?? '',
      lang: user?.lang ?? 'en',
      admin: user?.admin === 1,
      active: user ? user.active === 1 : true,
      ...EMPTY_NEW_PASSWORD,
    }),
    schema: user ? adminUserUpdateBody : adminUserCreateBody,
    body: user ? updateBody : createBody,
    fieldOf,
    text: problemText(t),
    // The repeat of the new password: a rule of the form only.
    check: (d) =>
      user ? {} : { ...(newPasswordErrors(d, t).repeat && { repeat: t('newPassword.mismatch') }) },
    generic: t('common.error'),
    // 409: the login is taken (the server names `body.nm`); said in the user's language.
    reword: (err, view) =>
      err.status === 409 && 'nm' in view.fields
        ? { ...view, fields: { ...view.fields, nm: t('activation.loginTaken') } }
        : view,
  });
  const create = useCreateUser();
  const update = useUpdateUser();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    if (user)
      update.mutate({ id: user.id, body: updateBody(draft) }, { onSuccess: onClose, onError: showRefusal });
    else create.mutate({ accountId, body: createBody(draft) }, { onSuccess: onClose, onError: showRefusal });
  };
  const rest = failure;
  const pw = { password: draft.password, repeat: draft.repeat };

  return (
    <Modal
      opened
      onClose={onClose}
      title={user ? t('activation.editUser') : t('activation.newUser')}
      centered
    >
      <Stack component="form" onSubmit={submit} gap="sm">
        <TextInput
          label={t('activation.login')}
          required
          data-autofocus
          autoComplete="off"
          value={draft.nm}
          maxLength={LOGIN_NAME_MAX}
          error={errors.nm}
          onChange={(e) => edit({ nm: e.currentTarget.value }, 'nm')}
        />
        <TextInput
          label={t('activation.fullName')}
          value={draft.n}
          maxLength={USER_FULL_NAME_MAX}
          error={errors.n}
          onChange={(e) => edit({ n: e.currentTarget.value }, 'n')}
        />
        {!user && (
          <NewPasswordFields
            value={pw}
            onChange={(next, changed) => edit(next, changed)}
            errors={errors}
            passwordLabel={t('activation.password')}
            repeatLabel={t('activation.passwordRepeat')}
          />
        )}
        <Select
          label={t('activation.language')}
          value={draft.lang}
          allowDeselect={false}
          error={errors.lang}
          onChange={(v) => v && edit({ lang: v as Language }, 'lang')}
          data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
        />
        <Checkbox
          label={t('activation.accountAdmin')}
          checked={draft.admin}
          onChange={(e) => edit({ admin: e.currentTarget.checked })}
        />
        {user && (
          <Checkbox
            label={t('activation.userActive')}
            checked={draft.active}
            onChange={(e) => edit({ active: e.currentTarget.checked })}
          />
        )}
        {rest && (
          <Alert color="red" role="alert">
            {rest}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Sets a new password for a user; the server ends that user's sessions and API tokens. */
export function PasswordDialog({ user, onClose }: { user: AdminUserWire; onClose: () => void }) {
  const { t } = useTranslation();
  const {
    draft: pw,
    errors,
    failure: rest,
    edit,
    validate,
    showRefusal,
  } = useEditorForm<NewPassword, Field>({
    initial: () => EMPTY_NEW_PASSWORD,
    schema: adminUserPasswordBody,
    body: (d) => ({ password: d.password }),
    fieldOf,
    text: problemText(t),
    // The repeat of the new password: a rule of the form only.
    check: (d) => ({ ...(newPasswordErrors(d, t).repeat && { repeat: t('newPassword.mismatch') }) }),
    generic: t('common.error'),
  });
  const save = useSetPassword();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    save.mutate({ id: user.id, password: pw.password }, { onSuccess: onClose, onError: showRefusal });
  };
  return (
    <Modal opened onClose={onClose} title={t('activation.setPasswordFor', { name: user.nm })} centered>
      <Stack component="form" onSubmit={submit} gap="sm">
        <NewPasswordFields
          value={pw}
          onChange={(next, changed) => edit(next, changed)}
          errors={errors}
          passwordLabel={t('activation.password')}
          repeatLabel={t('activation.passwordRepeat')}
          autoFocus
        />
        {rest && (
          <Alert color="red" role="alert">
            {rest}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
