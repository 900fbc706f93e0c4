import {
  type AdminUserWire,
  LANGUAGES,
  type Language,
  LOGIN_NAME_MAX,
  USER_FULL_NAME_MAX,
} from '@fleetkeep/core';
import { Alert, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EMPTY_NEW_PASSWORD,
  type NewPassword,
  NewPasswordFields,
  newPasswordErrors,
} from '../../components/NewPasswordFields.tsx';
import { LANGUAGE_NAMES } from '../../i18n/languages.ts';
import { ApiError } from '../../lib/api.ts';
import { detailsToFields } from '../../lib/fieldErrors.ts';
import { useCreateUser, useSetPassword, useUpdateUser } from './api.ts';

type Errors = Record<string, string>;
const FIELDS = new Set(['nm', 'n', 'lang', 'admin', 'active', 'password']);

/** Server failures onto the form's fields (lib/fieldErrors.ts); a 409 names the login (`body.nm`). */
function serverErrors(err: unknown, fallback: string): { fields: Errors; rest: string | null } {
  if (!(err instanceof ApiError)) return { fields: {}, rest: fallback };
  const mapped = detailsToFields(err.details, (path) => (path[0] && FIELDS.has(path[0]) ? path[0] : null));
  const rest = mapped.rest[0] ?? (Object.keys(mapped.fields).length === 0 ? err.reason : null);
  return { fields: mapped.fields, rest };
}

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
  const [nm, setNm] = useState(user?.nm ?? '');
  const [n, setN] = useState(user?.n ?? '');
  const [lang, setLang] = useState<Language>(user?.lang ?? 'en');
  const [admin, setAdmin] = useState(user?.admin === 1);
  const [active, setActive] = useState(user ? user.active === 1 : true);
  const [pw, setPw] = useState<NewPassword>(EMPTY_NEW_PASSWORD);
  const [errors, setErrors] = useState<Errors>({});
  const [rest, setRest] = useState<string | null>(null);
  const create = useCreateUser();
  const update = useUpdateUser();

  const fail = (err: unknown) => {
    const mapped = serverErrors(err, t('common.error'));
    // 409: the login is taken (the server names `body.nm`); said in the user's language.
    if (err instanceof ApiError && err.status === 409 && 'nm' in mapped.fields)
      mapped.fields.nm = t('activation.loginTaken');
    setErrors(mapped.fields);
    setRest(mapped.rest);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const local: Errors = user ? {} : newPasswordErrors(pw, t);
    if (!nm.trim()) local.nm = t('controls.required');
    setErrors(local);
    setRest(null);
    if (Object.keys(local).length > 0) return;
    const fields = { nm: nm.trim(), n: n.trim(), lang, admin: admin ? 1 : 0 } as const;
    if (user)
      update.mutate(
        { id: user.id, body: { ...fields, active: active ? 1 : 0 } },
        { onSuccess: onClose, onError: fail },
      );
    else
      create.mutate(
        { accountId, body: { ...fields, password: pw.password } },
        { onSuccess: onClose, onError: fail },
      );
  };

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
          value={nm}
          maxLength={LOGIN_NAME_MAX}
          error={errors.nm}
          onChange={(e) => setNm(e.currentTarget.value)}
        />
        <TextInput
          label={t('activation.fullName')}
          value={n}
          maxLength={USER_FULL_NAME_MAX}
          error={errors.n}
          onChange={(e) => setN(e.currentTarget.value)}
        />
        {!user && (
          <NewPasswordFields
            value={pw}
            onChange={(next, changed) => {
              setPw(next);
              setErrors((e) => ({ ...e, [changed]: '' }));
            }}
            errors={errors}
            passwordLabel={t('activation.password')}
            repeatLabel={t('activation.passwordRepeat')}
          />
        )}
        <Select
          label={t('activation.language')}
          value={lang}
          allowDeselect={false}
          error={errors.lang}
          onChange={(v) => v && setLang(v as Language)}
          data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
        />
        <Checkbox
          label={t('activation.accountAdmin')}
          checked={admin}
          onChange={(e) => setAdmin(e.currentTarget.checked)}
        />
        {user && (
          <Checkbox
            label={t('activation.userActive')}
            checked={active}
            onChange={(e) => setActive(e.currentTarget.checked)}
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
  const [pw, setPw] = useState<NewPassword>(EMPTY_NEW_PASSWORD);
  const [errors, setErrors] = useState<Errors>({});
  const [rest, setRest] = useState<string | null>(null);
  const save = useSetPassword();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const local = newPasswordErrors(pw, t);
    setErrors(local);
    setRest(null);
    if (Object.keys(local).length > 0) return;
    save.mutate(
      { id: user.id, password: pw.password },
      {
        onSuccess: onClose,
        onError: (err) => {
          const mapped = serverErrors(err, t('common.error'));
          setErrors(mapped.fields);
          setRest(mapped.rest);
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('activation.setPasswordFor', { name: user.nm })} centered>
      <Stack component="form" onSubmit={submit} gap="sm">
        <NewPasswordFields
          value={pw}
          onChange={(next, changed) => {
            setPw(next);
            setErrors((e) => ({ ...e, [changed]: '' }));
          }}
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
