import { DEMO_PASSWORD } from '../server.ts';
import { apiSession, expect, login, openUserMenu, test } from './fixtures.ts';

const NEW_PASSWORD = 'journey-password-1';

/** A user changes their own password in settings and logs in with the new one. */
test('changing the own password in settings, then logging in with the new one', async ({ page, request }) => {
  await login(page, 'mechanic');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/settings');
  const form = page.getByTestId('change-password');
  await expect(form.getByRole('heading', { name: 'Change password' })).toBeVisible();
  try {
    // A wrong current password is shown on its field, from the server's details.
    await form.getByLabel('Current password').fill('not-the-password');
    await form.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await form.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByText('The current password is wrong.')).toBeVisible();

    await form.getByLabel('Current password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByRole('status')).toContainText('Password changed.');
    // The session that changed it stays.
    await page.reload();
    await expect(page).toHaveURL('/settings');

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Exit' }).click();
    await expect(page).toHaveURL('/login');
    await login(page, 'mechanic');
    await expect(page.getByTestId('login-error')).toBeVisible();
    await login(page, 'mechanic', NEW_PASSWORD);
    await expect(page).toHaveURL('/dashboard');
  } finally {
    // The demo password back for the other journeys.
    const session = await apiSession(request, 'mechanic', '', NEW_PASSWORD).catch(() => null);
    if (session)
      await request.put('/api/user/password', {
        headers: session.headers,
        data: { old: NEW_PASSWORD, new: DEMO_PASSWORD },
      });
  }
});
