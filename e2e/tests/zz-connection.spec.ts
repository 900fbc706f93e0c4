import { serverInfo, startServer, stopServer } from '../server.ts';
import { expect, login, test } from './fixtures.ts';

/** Spec §2: the overlay appears when the live connection drops; the page reloads when it returns. */
test('the connection overlay follows the server going away and coming back', async ({ page }) => {
  test.setTimeout(60_000);
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  // Marks this page load; a reload forgets it.
  await page.evaluate(() => {
    (window as unknown as { e2eMark: boolean }).e2eMark = true;
  });

  const info = serverInfo();
  await stopServer(info);
  const overlay = page.getByRole('alertdialog');
  await expect(overlay).toContainText('Unable to connect to the server.');
  await expect(overlay.getByRole('button', { name: 'Reload now' })).toBeVisible();

  await startServer(info);
  await expect(overlay).toBeHidden({ timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { e2eMark?: boolean }).e2eMark)).toBeUndefined();
});
