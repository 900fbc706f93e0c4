import { PASSWORD_MIN_LENGTH, type UserPasswordBody } from '@fleetkeep/core';
import { Alert, Button, Group, PasswordInput, Stack, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NewPasswordFields, newPasswordErrors } from '../components/NewPasswordFields.tsx';
import { ApiError } from '../lib/api.ts';
import { client } from '../lib/client.ts';
import { detailsToFields } from '../lib/fieldErrors.ts';

type Field = 'old' | 'new' | 'repeat';
const EMPTY: Record<Field, string> = { old: '', new: '', repeat: '' };

/**
 * Settings → "Change password": the current password, the new one twice. The server
 * checks the current one and ends the user's other sessions and API tokens; this session stays.
 */
export function ChangePassword() {
  const { t } = useTranslation();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [result, setResult] = useState<'saved' | string | null>(null);
  const [busy, setBusy] = useState(false);
  const tooShort = t('newPassword.tooShort', { min: PASSWORD_MIN_LENGTH });

  const change = (field: Field, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    setResult(null);
  };

  /** Server details onto the fields, in the user's language where the rule is known. */
  const fromServer = (err: ApiError) => {
    const mapped = detailsToFields(err.details, (path) =>
      path[0] === 'old' || path[0] === 'new' ? path[0] : null,
    );
    const fields: Partial<Record<Field, string>> = {};
    if (mapped.fields.old)
      fields.old = err.reason === 'Wrong password' ? t('settings.password.wrongOld') : mapped.fields.old;
    if (mapped.fields.new) fields.new = tooShort;
    setErrors(fields);
    if (Object.keys(fields).length === 0) setResult(mapped.rest[0] ?? err.reason);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const pair = newPasswordErrors({ password: form.new, repeat: form.repeat }, t);
    const local: Partial<Record<Field, string>> = {};
    if (pair.password) local.new = pair.password;
    if (pair.repeat) local.repeat = pair.repeat;
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      const body: UserPasswordBody = { old: form.old, new: form.new };
      await client.user.password(body);
      setForm(EMPTY);
      setResult('saved');
    } catch (err) {
      if (err instanceof ApiError && err.code === 4) fromServer(err);
      else if (err instanceof ApiError && err.code === 9) setResult(t('login.errorTooMany'));
      else setResult(t('settings.password.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} data-testid="change-password">
      <Stack maw={520}>
        <Title order={2} size="h3">
          {t('settings.password.title')}
        </Title>
        <PasswordInput
          label={t('settings.password.old')}
          autoComplete="current-password"
          value={form.old}
          error={errors.old}
          disabled={busy}
          required
          onChange={(e) => change('old', e.currentTarget.value)}
        />
        <NewPasswordFields
          value={{ password: form.new, repeat: form.repeat }}
          onChange={(next, changed) =>
            changed === 'password' ? change('new', next.password) : change('repeat', next.repeat)
          }
          errors={{ password: errors.new, repeat: errors.repeat }}
          passwordLabel={t('settings.password.new')}
          repeatLabel={t('settings.password.repeat')}
          disabled={busy}
        />
        {result && (
          <Alert color={result === 'saved' ? 'green' : 'red'} role="status">
            {result === 'saved' ? t('settings.password.saved') : result}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy} disabled={form.old === '' || form.new === ''}>
            {t('settings.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
