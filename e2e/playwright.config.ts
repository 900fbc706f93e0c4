import { defineConfig } from '@playwright/test';

// E2E_CPU_THROTTLE=N (tests/fixtures.ts) slows the page's CPU N times; the time limits grow with it.
const slow = Math.max(1, Number(process.env.E2E_CPU_THROTTLE || 1) || 1);

/**
 * Browser journeys in Debian's Chromium (no browser download) against the built SPA and a real server
 * started by the global setup. One worker: one journey stops and restarts the server.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  // Under CI one retry, reported by name as FLAKY in the summary of npm test; locally none.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000 * slow,
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
