import '@mantine/core/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/routes.tsx';
import { bootstrap, queryClient } from './app/session.ts';
import { initI18n } from './i18n/index.ts';
import { browserLanguage } from './i18n/languages.ts';

const theme = createTheme({ primaryColor: 'blue' });

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  // Spec §2: the page language comes from the browser first, then from the user's settings.
  await initI18n(browserLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]));
  createRoot(root).render(
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
