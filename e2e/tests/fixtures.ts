import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, serverInfo } from '../server.ts';

/** Journeys run against the server of the global setup; its address is known only at run time. */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function destructures.
  baseURL: async ({}, use) => {
    await use(`http://127.0.0.1:${serverInfo().port}`);
  },
});
export { expect };

export type DemoUser = 'root' | 'admin' | 'manager' | 'mechanic' | 'viewer' | 'outsider';

/** Signs in through the login screen. */
export async function login(page: Page, user: DemoUser, password = DEMO_PASSWORD): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password').and(page.locator('input')).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
}

const SHOTS = path.resolve(import.meta.dirname, '../screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
