import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { freePort, type ServerInfo, startServer, stopServer } from '../server.ts';
import { expect, login, openUserMenu, screenshot, test } from './fixtures.ts';

const helpDialog = (page: Page) => page.getByRole('dialog', { name: 'Help' });

async function openHelpFromMenu(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Help' }).click();
  await expect(helpDialog(page)).toBeVisible();
}

async function box(page: Page) {
  const b = await helpDialog(page).boundingBox();
  if (!b) throw new Error('help dialog has no box');
  return { x: Math.round(b.x), y: Math.round(b.y), w: Math.round(b.width), h: Math.round(b.height) };
}

/** Drags from the middle of an element by (dx, dy) with the mouse. */
async function drag(page: Page, testId: string, dx: number, dy: number, at: 'center' | 'left' = 'center') {
  const b = await page.getByTestId(testId).boundingBox();
  if (!b) throw new Error(`${testId} has no box`);
  const x = at === 'left' ? b.x + 30 : b.x + b.width / 2;
  const y = b.y + b.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

test('the manager sees the help a manager may see; the viewer no administration', async ({ page }) => {
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await openHelpFromMenu(page);
  const dialog = helpDialog(page);
  const groups = dialog.getByRole('heading', { level: 3 });
  await expect(groups).toHaveText([
    'Administration',
    'Dashboard',
    'Service objects',
    'Intervals',
    'Services',
    'Reports',
    'Line items',
    'User settings',
  ]);
  // Activation is for super users and admins of admin-only fleets only.
  await expect(dialog.getByRole('button', { name: 'Fleet administration' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Activation' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cost per 1 distance unit' }).click();
  await expect(dialog.getByText(/total cost of closed services and fuel/)).toBeVisible();
  // The default box: 350 wide at the bottom right, below the top margin of 120.
  expect(await box(page)).toEqual({ x: 930, y: 120, w: 350, h: 680 });
  await screenshot(page, 'help-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForTimeout(300);
  await screenshot(page, 'help-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole('button', { name: 'Close help' }).click();
  await expect(dialog).toBeHidden();

  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Exit' }).click();
  await login(page, 'viewer');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/services');
  // The header help button opens the help of the current screen.
  await page.getByRole('button', { name: 'Open help' }).click();
  await expect(helpDialog(page)).toBeVisible();
  await expect(helpDialog(page).getByRole('heading', { level: 3, name: 'Services' })).toBeInViewport();
  await expect(helpDialog(page).getByRole('heading', { level: 3 })).not.toContainText(['Administration']);
  await expect(helpDialog(page).getByRole('heading', { level: 3 }).first()).toHaveText('Dashboard');
});

test('the dialog moves, resizes, minimizes, maximizes, is restored after a reload and closes on logout', async ({
  page,
}) => {
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await openHelpFromMenu(page);
  expect(await box(page)).toEqual({ x: 930, y: 120, w: 350, h: 680 });

  await drag(page, 'help-titlebar', -400, -60, 'left');
  expect(await box(page)).toEqual({ x: 530, y: 60, w: 350, h: 680 });
  await drag(page, 'help-resize-e', 100, 0);
  expect(await box(page)).toEqual({ x: 530, y: 60, w: 450, h: 680 });
  // Dropped near the top edge it snaps onto it.
  await drag(page, 'help-titlebar', 0, -50, 'left');
  expect(await box(page)).toEqual({ x: 530, y: 0, w: 450, h: 680 });

  await page.reload();
  await expect(helpDialog(page)).toBeVisible();
  expect(await box(page)).toEqual({ x: 530, y: 0, w: 450, h: 680 });

  await page.getByRole('button', { name: 'Minimize' }).click();
  await expect(helpDialog(page)).toHaveAttribute('data-mode', 'minimized');
  expect((await box(page)).h).toBe(60);
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(helpDialog(page)).toHaveAttribute('data-mode', 'normal');
  await page.getByRole('button', { name: 'Maximize' }).click();
  expect(await box(page)).toEqual({ x: 0, y: 0, w: 1280, h: 800 });
  await page.reload();
  await expect(helpDialog(page)).toHaveAttribute('data-mode', 'maximized');
  await page.getByRole('button', { name: 'Restore' }).click();
  expect(await box(page)).toEqual({ x: 530, y: 0, w: 450, h: 680 });

  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Exit' }).click();
  await expect(page).toHaveURL('/login');
  await expect(helpDialog(page)).toHaveCount(0);
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await expect(helpDialog(page)).toHaveCount(0);
  // Opened again after the new login, it comes back where the user left it.
  await openHelpFromMenu(page);
  expect(await box(page)).toEqual({ x: 530, y: 0, w: 450, h: 680 });
});

test('a server with a notice, a shutdown date and a forum shows the banners and the forum item', async ({
  page,
}) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-e2e-notice-'));
  const info: ServerInfo = { port: await freePort(), dataDir, pidFile: path.join(dataDir, 'server.pid') };
  const env = {
    FLEETKEEP_NOTICE: JSON.stringify({
      en: 'Maintenance tonight at 22:00 UTC.',
      de: 'Wartung heute um 22:00 UTC.',
    }),
    FLEETKEEP_SHUTDOWN_FROM: '2020-01-02',
    FORUM_URL: 'https://forum.example/{lang}/',
  };
  const previous = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    await startServer(info);
    const base = `http://127.0.0.1:${info.port}`;
    await page.goto(`${base}/login`);
    await login(page, 'mechanic');
    await expect(page).toHaveURL(`${base}/dashboard`);
    await expect(page.getByTestId('notice-banner')).toHaveText(/Maintenance tonight at 22:00 UTC\./);
    await expect(page.getByTestId('shutdown-banner')).toHaveText(
      'The application will stop supporting your version of the tracking system from 02.01.2020.',
    );
    await openUserMenu(page);
    const forum = page.getByRole('menuitem', { name: 'Forum' });
    await expect(forum).toHaveAttribute('href', 'https://forum.example/en/');
    await expect(forum).toHaveAttribute('target', '_blank');
    await page.keyboard.press('Escape');
    await screenshot(page, 'banners-1280');

    // Dismissed for the session: a reload keeps it hidden; the shutdown notice stays.
    await page.getByTestId('notice-banner').getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('notice-banner')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('shutdown-banner')).toBeVisible();
    await expect(page.getByTestId('notice-banner')).toHaveCount(0);
  } finally {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await stopServer(info);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
