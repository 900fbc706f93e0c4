import { guardRoute } from '@fleetkeep/core';
import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Loading } from '../components/Loading.tsx';
import { useSetupNeeded } from '../features/setup/useSetupState.ts';
import { guardUser, login, peekOrigin, useSession } from '../lib/session.ts';

/** Spec §2 /login: user name and password; an authenticated user goes to the remembered origin. */
export function LoginScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const setupNeeded = useSetupNeeded(session.status === 'anonymous');

  if (session.status === 'loading' || (session.status === 'anonymous' && setupNeeded === undefined))
    return <Loading />;
  // On a database without users the set-up screen comes instead of the login.
  if (session.status === 'anonymous' && setupNeeded) return <Navigate to="/setup" replace />;
  if (session.status === 'authenticated') {
    const decision = guardRoute(guardUser(session.auth), 'login', { origin: peekOrigin() });
    return <Navigate to={decision.kind === 'redirect' ? decision.to : '/'} replace />;
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    await login(username.trim(), password);
    setBusy(false);
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={380} radius="md">
        <form onSubmit={(e) => void submit(e)}>
          <Stack>
            <Title order={1} size="h2" ta="center">
              {t('app.name')}
            </Title>
            <Title order={2} size="h4" ta="center" fw={400}>
              {t('login.title')}
            </Title>
            {session.loginError && (
              <Alert color="red" role="alert" data-testid="login-error">
                {t(session.loginError)}
              </Alert>
            )}
            <TextInput
              label={t('login.username')}
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              required
              disabled={busy}
            />
            <PasswordInput
              label={t('login.password')}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              required
              disabled={busy}
            />
            <Button type="submit" loading={busy} fullWidth>
              {t('login.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
