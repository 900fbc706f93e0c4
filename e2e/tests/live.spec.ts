import { DEMO_PASSWORD } from '../server.ts';
import { expect, login, test } from './fixtures.ts';

test('an unknown unit redirects to the service objects', async ({ page }) => {
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/unit/999999');
  await expect(page).toHaveURL('/items');
  await expect(page.getByRole('heading', { level: 1, name: 'Service objects' })).toBeVisible();
});

test('a change of the current fleet elsewhere opens the fleet dialog (spec §4)', async ({
  page,
  request,
}) => {
  await login(page, 'outsider');
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // Another session of an admin of that fleet changes the fleet's currency (a save that changes
  // nothing tells nobody; the saving session itself gets no dialog either).
  const { access_token } = await (
    await request.post('/api/login', { data: { username: 'outsider', password: DEMO_PASSWORD } })
  ).json();
  const auth = await (await request.get(`/api/auth?access_token=${access_token}`)).json();
  const fleet = auth.fleets.find((f: { id: number }) => f.id === auth.fid);
  const headers = { Authorization: `SSID ${auth.session}` };
  try {
    const res = await request.put(`/api/fleets/${auth.fid}`, { headers, data: { cur: `${fleet.cur}x` } });
    expect(res.ok()).toBe(true);

    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(
      'Current fleet settings have been changed. Please reload the page to continue.',
    );
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  } finally {
    await request.put(`/api/fleets/${auth.fid}`, { headers, data: { cur: fleet.cur } });
  }
});
