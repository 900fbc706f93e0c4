import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, serverInfo } from '../server.ts';

/** Journeys run against the server of the global setup; its address is known only at run time. */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function destructures.
  baseURL: async ({}, use) => {
    await use(`http://127.0.0.1:${serverInfo().port}`);
  },
  // E2E_CPU_THROTTLE=N runs every journey's page on an N times slower CPU (playwright.config.ts scales the
  // time limits with it): races that a loaded CI machine shows once in a while show up every time.
  page: async ({ page }, use) => {
    const rate = cpuThrottle();
    if (rate > 1) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    }
    await use(page);
  },
});
export { expect };

/** The CPU slow-down factor of E2E_CPU_THROTTLE (1 when unset). */
export function cpuThrottle(): number {
  const rate = Number(process.env.E2E_CPU_THROTTLE || 1);
  return Number.isFinite(rate) && rate > 1 ? rate : 1;
}

export type DemoUser = 'root' | 'admin' | 'manager' | 'mechanic' | 'viewer' | 'outsider';

/** Signs in through the login screen. */
export async function login(page: Page, user: DemoUser, password = DEMO_PASSWORD): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password').and(page.locator('input')).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Moves inside the app as a link would (history push, then the router's pop-state listener) instead of
 * loading the page again, which costs a second or more per screen on a busy machine. Waits until the
 * screen the guard let through, or the one it sent the user to, has been committed (web
 * components/ScreenMark.tsx writes `<html data-screen>`): after an in-app navigation the previous screen
 * may stay on show while the next one's code loads, so neither the URL nor a heading says it alone.
 */
export async function navigateInApp(page: Page, route: string): Promise<void> {
  await page.evaluate((to) => {
    delete document.documentElement.dataset.screen;
    // The router's own state shape: a fresh key per entry (the mark follows it), the next index.
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    const key = Math.random().toString(36).slice(2, 10);
    window.history.pushState({ usr: null, key, idx }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, route);
  await expect(page.locator('html[data-screen]')).toHaveCount(1);
}

export async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
}

const SHOTS = path.resolve(import.meta.dirname, '../screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

export interface ApiSession {
  fid: number;
  session: string;
  headers: { Authorization: string };
  unitTypes: { id: number; n: string }[];
}

/** Signs a demo user in through the API (login, then auth) for setting up and checking data. */
export async function apiSession(
  request: APIRequestContext,
  user: DemoUser,
  base = '',
  password = DEMO_PASSWORD,
): Promise<ApiSession> {
  const { access_token } = await (
    await request.post(`${base}/api/login`, { data: { username: user, password } })
  ).json();
  const auth = await (await request.get(`${base}/api/auth?access_token=${access_token}`)).json();
  return {
    fid: auth.fid as number,
    session: auth.session as string,
    headers: { Authorization: `SSID ${auth.session}` },
    unitTypes: auth.unit_types,
  };
}

/** The demo fleet's calendar day (its zone is UTC+3, the seed's tz 180), shifted by `days`. */
export function fleetDay(days = 0): string {
  return new Date(Date.now() + 3 * 3600_000 + days * 86400_000).toISOString().slice(0, 10);
}

/**
 * Nothing may stick out sideways: the page scrolls only vertically (usable at phone width). Polled, since
 * charts and other resize-observed parts follow a viewport change a frame or more later.
 */
export async function expectNoPageScroll(page: Page, width = 375): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(width);
}

/** A full-page screenshot at desktop (1280 px) and phone (375 px) width, with no sideways scroll at 375. */
export async function screenshotsAtBothWidths(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoPageScroll(page);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}
