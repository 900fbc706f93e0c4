import { defineConfig } from '@playwright/test';

// E2E_CPU_THROTTLE=N (tests/fixtures.ts) slows the page's CPU N times; the time limits grow with it.
const slow = Math.max(1, Number(process.env.E2E_CPU_THROTTLE || 1) || 1);

/**
 * Browser journeys in Debian's Chromium (no browser download) against the built SPA and real servers
 * started by the global setup, one per worker (server.ts serverInfo), so that the journey that stops and
 * restarts its server disturbs no other worker. E2E_WORKERS=N overrides the two workers (1 to debug).
 * Files are spread over the workers; the tests of one file run in order on one worker.
 */
const workers = Math.max(1, Number(process.env.E2E_WORKERS || 2) || 2);

export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  workers,
  fullyParallel: false,
  forbidOnly: true,
  // Under CI one retry, reported by name as FLAKY in the summary of npm test; locally none.
  retries: process.env.CI ? 1 : 0,
  // Two workers share the CPU with their servers: a journey that takes 20 s alone may take 40 s here.
  timeout: 60_000 * slow,
  expect: { timeout: 10_000 * slow },
  outputDir: './test-results',
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
