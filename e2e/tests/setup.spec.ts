import { type EmptyServer, startEmptyServer } from '../server.ts';
import { expect, openUserMenu, screenshot, test } from './fixtures.ts';

/**
 * The first run. This journey needs an EMPTY database, so it starts its own server
 * (`FLEETKEEP_DEMO=0`, fresh data directory) next to the suite's demo server and stops it after.
 */

let server: EmptyServer | undefined;
let base = '';

test.beforeAll(async () => {
  server = await startEmptyServer('setup');
  base = server.base;
});

test.afterAll(async () => {
  await server?.stop();
});

test('an empty database shows the set-up screen; it signs the super user in and is gone after', async ({
  page,
}) => {
  await page.goto(`${base}/`);
  // No session → /login → set-up needed → /setup.
  await expect(page).toHaveURL(`${base}/setup`);
  await expect(page.getByRole('heading', { name: 'Set up Fleetkeep' })).toBeVisible();
  await screenshot(page, 'setup-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'setup-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Client-side checks from the core contract: a short password is refused before any request.
  await page.getByLabel('Organisation').fill('Baltic Haulage');
  await page.getByLabel('Your full name').fill('Rita Root');
  await page.getByLabel('User name').fill('rita');
  await page
    .getByLabel(/^Password/)
    .and(page.locator('input'))
    .fill('short');
  await page.getByLabel('Repeat the password').fill('short');
  await page.getByRole('button', { name: 'Create and sign in' }).click();
  await expect(page.getByText('At least 10 characters').first()).toBeVisible();
  await expect(page).toHaveURL(`${base}/setup`);

  await page
    .getByLabel(/^Password/)
    .and(page.locator('input'))
    .fill('first-run-password');
  await page.getByLabel('Repeat the password').fill('first-run-password');
  await page.getByText('Miles', { exact: true }).click();
  await page.getByText('US gallons', { exact: true }).click();
  // A click selects the whole zone: typing replaces it and filters; Enter picks the highlighted zone
  // and does not submit the form.
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  await zone.click();
  await page.keyboard.type('Vilnius');
  await expect(zone).toHaveValue('Vilnius');
  await page.keyboard.press('Enter');
  await expect(zone).toHaveValue(/UTC\+02:00 Helsinki.*Vilnius/);
  await expect(page).toHaveURL(`${base}/setup`);
  await page.getByLabel('Currency').fill('EUR');
  await page.getByRole('button', { name: 'Create and sign in' }).click();

  // Signed in at once: the super user is also the first fleet's manager (docs/product.md "Working
  // alone"), so the index redirector sends them to the fleet's dashboard, with the fleet's menu.
  await expect(page).toHaveURL(`${base}/dashboard`);
  await page.reload();
  await expect(page).toHaveURL(`${base}/dashboard`);
  const nav = page.getByRole('navigation');
  for (const item of ['Activation', 'Dashboard', 'Services', 'Intervals'])
    await expect(nav.getByRole('link', { name: item }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Set up Fleetkeep' })).toHaveCount(0);

  // The fleet carries the chosen settings.
  const token = await page.evaluate(() => {
    const raw = localStorage.getItem('fleetkeep.token');
    return raw === null ? null : (JSON.parse(raw) as string);
  });
  expect(token).not.toBeNull();
  const auth = await (await fetch(`${base}/api/auth?access_token=${encodeURIComponent(token!)}`)).json();
  expect(auth.su).toBe(1);
  expect(auth.fleets[0]).toMatchObject({
    n: 'Baltic Haulage',
    ms: 1,
    fm: 2,
    cur: 'EUR',
    tz: 0x08000000 | 120,
  });

  // After logout the set-up is gone for good: /setup leads to the login.
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Exit' }).click();
  await expect(page).toHaveURL(`${base}/login`);
  await page.goto(`${base}/setup`);
  await expect(page).toHaveURL(`${base}/login`);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});

test('a browser that lost the race is told so and offered the login', async ({ page }) => {
  // The database has its super user from the journey above; a second set-up screen still open
  // elsewhere would get 409. Simulate it: the screen believes set-up is needed.
  await page.route(`${base}/api/setup`, async (route) => {
    if (route.request().method() === 'GET') await route.fulfill({ json: { needed: true } });
    else await route.continue();
  });
  await page.goto(`${base}/setup`);
  await page.getByLabel('Organisation').fill('Late Org');
  await page.getByLabel('Your full name').fill('Late Comer');
  await page.getByLabel('User name').fill('late');
  await page
    .getByLabel(/^Password/)
    .and(page.locator('input'))
    .fill('late-password-1');
  await page.getByLabel('Repeat the password').fill('late-password-1');
  await page.getByRole('button', { name: 'Create and sign in' }).click();
  await expect(page.getByTestId('setup-taken')).toBeVisible();
  await screenshot(page, 'setup-taken-1280');
  await page.unroute(`${base}/api/setup`);
  await page.getByRole('button', { name: 'Go to the login' }).click();
  await expect(page).toHaveURL(`${base}/login`);
});
