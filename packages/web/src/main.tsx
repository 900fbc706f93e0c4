import '@mantine/core/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/routes.tsx';
import { initI18n } from './i18n/index.ts';
import { browserLanguage } from './i18n/languages.ts';
import { installFaultReporting, reportFault } from './lib/faults.ts';
import { bootstrap, getSessionState, queryClient } from './lib/session.ts';
import { setLeaveWarningGate } from './lib/useLeaveWarning.tsx';

const theme = createTheme({
  primaryColor: 'blue',
  components: {
    // One row of tabs at every width: at 375 px the list scrolls sideways instead of wrapping.
    // A plain object rather than Tabs.extend(): that would pull the Tabs code into the login route.
    Tabs: {
      styles: {
        list: { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' },
        tab: { paddingInline: 'var(--mantine-spacing-sm)', flexShrink: 0 },
      },
    },
  },
});

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  installFaultReporting();
  // Spec §2 leave warning: only a signed-in user is asked (a sign-out or an expired session just leaves).
  setLeaveWarningGate(() => getSessionState().status === 'authenticated');
  // Spec §2: the page language comes from the browser first, then from the user's settings.
  await initI18n(browserLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]));
  createRoot(root, {
    // Faults React handles itself (error boundaries, recoverable hydration errors) are reported too.
    onCaughtError: (error) => reportFault('render', error),
    onUncaughtError: (error) => reportFault('render', error),
    onRecoverableError: (error) => reportFault('warning', error),
  }).render(
    <StrictMode>
      <MantineProvider theme={theme}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
  await bootstrap();
}

void start();
