import { expect, login, test } from './fixtures.ts';

test('a new token shows its value once; delete asks and removes it', async ({ page }) => {
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/tokens');
  await page.getByLabel('Description').fill('e2e pipeline');
  await page.getByRole('radiogroup', { name: 'Services' }).getByText('Manage').click();
  await page.getByRole('button', { name: 'Create token' }).click();

  const value = page.getByTestId('token-value');
  await expect(value).toHaveText(/\S{20,}/);
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();
  const row = page.getByTestId('tokens').getByRole('row').filter({ hasText: 'e2e pipeline' });
  await expect(row).toContainText('Services: Manage');
  await expect(row).toContainText('Never');

  // The value is not shown again.
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.getByTestId('token-value')).toHaveCount(0);

  await row.getByRole('button', { name: 'Delete: e2e pipeline' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete token' });
  await expect(dialog).toContainText('e2e pipeline');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Delete: e2e pipeline' }).click();
  await page.getByRole('dialog', { name: 'Delete token' }).getByRole('button', { name: 'OK' }).click();
  await expect(row).toHaveCount(0);
});
