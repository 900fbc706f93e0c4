import { DEMO_PASSWORD } from '../server.ts';
import { type DemoUser, expect, login, openUserMenu, test } from './fixtures.ts';

/** Spec §2: where each demo user lands from the index redirector. */
const LANDINGS: [DemoUser, string, string][] = [
  ['root', '/activation', 'Activation'],
  ['admin', '/activation', 'Activation'],
  ['manager', '/dashboard', 'Dashboard'],
  ['mechanic', '/dashboard', 'Dashboard'],
  ['viewer', '/dashboard', 'Dashboard'],
  ['outsider', '/dashboard', 'Dashboard'],
];

for (const [user, path, title] of LANDINGS) {
  test(`${user} logs in and lands on ${path}`, async ({ page }) => {
    await login(page, user);
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  });
}

test('outsider sees its own fleet, not the demo fleet', async ({ page }) => {
  await login(page, 'outsider');
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByTestId('fleet-name')).toHaveText('Northwind fleet');
});

test('the menus follow the permissions', async ({ page }) => {
  await login(page, 'viewer');
  await expect(page).toHaveURL('/dashboard');
  const nav = page.getByRole('navigation').first();
  await expect(nav.getByRole('link', { name: 'Services' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Intervals' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Activation' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Fuel fillings' })).toBeVisible();
  await openUserMenu(page);
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'User settings' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'API tokens' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Help' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Documentation' })).toHaveAttribute(
    'href',
    'https://docs.example/en/',
  );
  await expect(menu.getByRole('menuitem', { name: 'Administration' })).toHaveCount(0);
});

test('a guarded route redirects when the permission is missing', async ({ page }) => {
  await login(page, 'viewer');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/interval/new');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/intervals/import');
  await expect(page).toHaveURL('/dashboard');
});

test('login remembers the origin', async ({ page }) => {
  await page.goto('/settings');
  await expect(page).toHaveURL('/login');
  await login(page, 'manager');
  await expect(page).toHaveURL('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'User settings' })).toBeVisible();
});

test('a wrong password shows the login error', async ({ page }) => {
  await login(page, 'viewer', `${DEMO_PASSWORD}-wrong`);
  await expect(page.getByTestId('login-error')).toHaveText('Wrong user name or password.');
  await expect(page).toHaveURL('/login');
});

test('logout clears the session', async ({ page }) => {
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Exit' }).click();
  await expect(page).toHaveURL('/login');
  const stored = await page.evaluate(() =>
    Object.keys(localStorage).filter((k) => k.startsWith('fleetkeep.')),
  );
  // Only the help dialog's place survives: a preference of the browser, not part of the session.
  expect(stored.filter((k) => k !== 'fleetkeep.help')).toEqual([]);
  await page.goto('/dashboard');
  await expect(page).toHaveURL('/login');
  // After an explicit logout the next login goes to the index target, not to the screen left.
  await login(page, 'viewer');
  await expect(page).toHaveURL('/dashboard');
});

test('a super user switches the current fleet', async ({ page }) => {
  await login(page, 'root');
  await expect(page).toHaveURL('/activation');
  const switcher = page.getByTestId('fleet-switcher');
  await switcher.selectOption({ label: 'Northwind fleet' });
  await expect(switcher).toHaveValue(/\d+/);
  await page.reload();
  await expect(page.getByTestId('fleet-switcher').locator('option:checked')).toHaveText('Northwind fleet');
});
