import { type Language, type SetupBody, setupBody } from '@fleetkeep/core';
import {
  Alert,
  Button,
  Center,
  Input,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { NewPasswordFields, newPasswordErrors } from '../../components/NewPasswordFields.tsx';
import { TimeZoneSelect } from '../../components/TimeZoneSelect.tsx';
import { i18next, setLanguage } from '../../i18n/index.ts';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../../i18n/languages.ts';
import { ApiError } from '../../lib/api.ts';
import { client } from '../../lib/client.ts';
import { detailsToFields } from '../../lib/fieldErrors.ts';
import { signInWithToken, useSession } from '../../lib/session.ts';
import { browserTimeZone } from '../../lib/timeZones.ts';
import { SETUP_QUERY_KEY, useSetupNeeded } from './useSetupState.ts';

/**
 * The first-run screen (route /setup, public like /login): on a database without users
 * it creates the organisation's top account, the super user and a first fleet, then signs in with the
 * token the server replies with. Gone for good once a user exists (the route then leads to /login).
 */

type Field = 'organisation' | 'name' | 'login' | 'password' | 'repeat' | 'lang' | 'tz' | 'cur';

interface Form {
  organisation: string;
  name: string;
  login: string;
  password: string;
  repeat: string;
  lang: Language;
  ms: '0' | '1';
  fm: '1' | '2';
  tz: string;
  cur: string;
}

const FIELDS: readonly string[] = ['organisation', 'name', 'login', 'password', 'lang', 'tz', 'cur'];

function initialForm(): Form {
  const lang = i18next.language;
  return {
    organisation: '',
    name: '',
    login: '',
    password: '',
    repeat: '',
    lang: isLanguage(lang) ? lang : 'en',
    ms: '0',
    fm: '1',
    tz: String(browserTimeZone().tz),
    cur: '',
  };
}

function bodyOf(form: Form): unknown {
  return {
    organisation: form.organisation,
    name: form.name,
    login: form.login,
    password: form.password,
    lang: form.lang,
    ms: Number(form.ms),
    fm: Number(form.fm),
    tz: Number(form.tz),
    cur: form.cur.trim() === '' ? undefined : form.cur,
  };
}

export default function SetupScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const needed = useSetupNeeded(session.status === 'anonymous');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(initialForm);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [taken, setTaken] = useState(false);
  const [busy, setBusy] = useState(false);

  const languages = useMemo(() => LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] })), []);

  if (session.status === 'loading') return <Loading />;
  if (session.status === 'authenticated') return <Navigate to="/" replace />;
  if (needed === undefined) return <Loading />;
  if (!needed && !taken) return <Navigate to="/login" replace />;

  const change = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  /** Client-side checks from the core contract; messages in the user's language. */
  const check = (): SetupBody | null => {
    const parsed = setupBody.safeParse(bodyOf(form));
    // The password pair by the one shared rule (components/NewPasswordFields), the rest by the contract.
    const found: Partial<Record<Field, string>> = newPasswordErrors(form, t);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as Field;
        found[field] ??= field === 'cur' ? t('setup.errorTooLong') : t('setup.errorRequired');
      }
    }
    setErrors(found);
    return parsed.success && Object.keys(found).length === 0 ? parsed.data : null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const body = check();
    if (!body) return;
    setBusy(true);
    try {
      const { access_token } = await client.setup.run(body);
      // Signed in first: the screen then leads to / (the index redirector), not to /login.
      await signInWithToken(access_token);
      queryClient.setQueryData(SETUP_QUERY_KEY, { needed: false });
      navigate('/', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        setTaken(true);
        queryClient.setQueryData(SETUP_QUERY_KEY, { needed: false });
      } else if (err instanceof ApiError && err.code === 4) {
        const mapped = detailsToFields(err.details, (path) =>
          FIELDS.includes(path[0] ?? '') ? (path[0] as string) : null,
        );
        setErrors(mapped.fields);
        setFailure(mapped.rest[0] ?? null);
      } else {
        setFailure(t('setup.errorFailed'));
      }
    } finally {
      setBusy(false);
    }
  };

  if (taken) {
    return (
      <Frame title={t('setup.title')}>
        <Alert color="yellow" role="alert" data-testid="setup-taken">
          {t('setup.alreadyDone')}
        </Alert>
        <Button fullWidth onClick={() => navigate('/login', { replace: true })}>
          {t('setup.toLogin')}
        </Button>
      </Frame>
    );
  }

  return (
    <Frame title={t('setup.title')}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('setup.intro')}
          </Text>
          {failure && (
            <Alert color="red" role="alert" data-testid="setup-error">
              {failure}
            </Alert>
          )}
          <TextInput
            label={t('setup.organisation')}
            description={t('setup.organisationHint')}
            value={form.organisation}
            onChange={(e) => change('organisation', e.currentTarget.value)}
            error={errors.organisation}
            required
            disabled={busy}
            autoFocus
          />
          <TextInput
            label={t('setup.name')}
            autoComplete="name"
            value={form.name}
            onChange={(e) => change('name', e.currentTarget.value)}
            error={errors.name}
            required
            disabled={busy}
          />
          <TextInput
            label={t('login.username')}
            autoComplete="username"
            value={form.login}
            onChange={(e) => change('login', e.currentTarget.value)}
            error={errors.login}
            required
            disabled={busy}
          />
          <NewPasswordFields
            value={form}
            onChange={(next, changed) => change(changed, next[changed])}
            errors={errors}
            passwordLabel={t('login.password')}
            repeatLabel={t('setup.repeat')}
            disabled={busy}
          />
          <Select
            label={t('setup.language')}
            data={languages}
            value={form.lang}
            onChange={(value) => {
              if (!isLanguage(value)) return;
              change('lang', value);
              void setLanguage(value);
            }}
            error={errors.lang}
            allowDeselect={false}
            disabled={busy}
          />
          <Title order={3} size="h5" mt="xs">
            {t('setup.fleetTitle')}
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Input.Wrapper label={t('setup.distance')} id="setup-distance">
              <SegmentedControl
                fullWidth
                aria-labelledby="setup-distance-label"
                value={form.ms}
                onChange={(v) => change('ms', v === '1' ? '1' : '0')}
                data={[
                  { value: '0', label: t('setup.km') },
                  { value: '1', label: t('setup.miles') },
                ]}
                disabled={busy}
              />
            </Input.Wrapper>
            <Input.Wrapper label={t('setup.fuel')} id="setup-fuel">
              <SegmentedControl
                fullWidth
                aria-labelledby="setup-fuel-label"
                value={form.fm}
                onChange={(v) => change('fm', v === '2' ? '2' : '1')}
                data={[
                  { value: '1', label: t('setup.litres') },
                  { value: '2', label: t('setup.gallons') },
                ]}
                disabled={busy}
              />
            </Input.Wrapper>
          </SimpleGrid>
          <TimeZoneSelect
            label={t('setup.timeZone')}
            value={Number(form.tz)}
            onChange={(tz) => change('tz', String(tz))}
            error={errors.tz}
            disabled={busy}
          />
          <TextInput
            label={t('setup.currency')}
            description={t('setup.currencyHint')}
            value={form.cur}
            onChange={(e) => change('cur', e.currentTarget.value)}
            error={errors.cur}
            disabled={busy}
            maw={200}
          />
          <Button type="submit" loading={busy} fullWidth mt="sm">
            {t('setup.submit')}
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}

function Frame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p={{ base: 'md', xs: 'xl' }} w="100%" maw={560} radius="md">
        <Stack>
          <Title order={1} size="h2" ta="center">
            {t('app.name')}
          </Title>
          <Title order={2} size="h4" ta="center" fw={400}>
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
