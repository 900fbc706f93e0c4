import { expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/** Screenshots for review (e2e/screenshots, not committed) at desktop and phone widths. */
for (const width of [1280, 375]) {
  test(`screens at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 740 });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await screenshot(page, `login-${width}`);
    await expectNoPageScroll(page, width);
    await login(page, 'manager');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await screenshot(page, `dashboard-${width}`);
    await expectNoPageScroll(page, width);
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'User settings' })).toBeVisible();
    await screenshot(page, `settings-${width}`);
    await expectNoPageScroll(page, width);
    await page.goto('/tokens');
    await page.getByLabel('Description').fill(`screenshot ${width}`);
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByTestId('token-value')).toBeVisible();
    await screenshot(page, `tokens-${width}`);
    await expectNoPageScroll(page, width);
    // The header stays keyboard reachable: tab to the user menu and open it.
    await page.getByTestId('user-menu').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Exit' })).toBeVisible();
  });
}
