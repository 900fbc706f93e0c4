import { expect, login, openUserMenu, test } from './fixtures.ts';

test('switching the language to German re-renders the header at once', async ({ page }) => {
  await login(page, 'mechanic');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/settings');
  await page.getByLabel('Language').selectOption('de');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('navigation').first().getByRole('link', { name: 'Wartungen' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Benutzereinstellungen' })).toBeVisible();
  // The setting is kept: a new page load comes up in German.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Benutzereinstellungen' })).toBeVisible();
  await page.getByLabel('Sprache').selectOption('en');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'User settings' })).toBeVisible();
});

test('the date format changes the dates shown', async ({ page }) => {
  await login(page, 'viewer');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/tokens');
  await page.getByLabel('Description').fill('date format check');
  await page.getByRole('button', { name: 'Create token' }).click();
  const created = page.getByTestId('token-created').first();
  await expect(created).toHaveText(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);

  await page.goto('/settings');
  await page.getByLabel('Date format').selectOption('YYYY-MM-DD');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await page.getByRole('navigation').first().getByRole('link', { name: 'Services' }).click();
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'API tokens' }).click();
  await expect(page.getByTestId('token-created').first()).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
});

test('leaving the settings form with unsaved changes asks first', async ({ page }) => {
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/settings');
  await page.getByLabel('Time format').selectOption('HH:mm:ss');
  await page.getByRole('navigation').first().getByRole('link', { name: 'Dashboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Warning!' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('If you leave this page now, all unsaved changes will be cancelled.');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/settings');
  await expect(page.getByLabel('Time format')).toHaveValue('HH:mm:ss');

  await page.getByRole('navigation').first().getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('dialog', { name: 'Warning!' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL('/dashboard');
  // Nothing was saved.
  await page.goto('/settings');
  await expect(page.getByLabel('Time format')).toHaveValue('HH:mm');
});
