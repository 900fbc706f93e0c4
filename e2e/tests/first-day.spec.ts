import type { Page } from '@playwright/test';
import { type EmptyServer, startEmptyServer } from '../server.ts';
import { cpuThrottle, expect, screenshot, test } from './fixtures.ts';

/**
 * A self-hoster starts from an EMPTY database (its own server, `FLEETKEEP_DEMO=0`)
 * and gets to work without reading code: set-up → a fleet → a unit with device id `trk-1`, a driver → a
 * colleague with view rights → an OsmAnd reading of `trk-1` moves the unit's mileage on the colleague's
 * screen → the colleague sees only what the rights allow.
 */

let server: EmptyServer | undefined;
let base = '';
const PASSWORD = 'first-day-password';
const COLLEAGUE_PASSWORD = 'colleague-password';

test.beforeAll(async () => {
  server = await startEmptyServer('first-day');
  base = server.base;
});

test.afterAll(async () => {
  await server?.stop();
});

async function signIn(page: Page, login: string, password: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel('User name').fill(login);
  await page.getByLabel('Password').and(page.locator('input')).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('from an empty database to a tracked unit seen by a colleague with view rights', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000 * cpuThrottle());

  // 1. The set-up screen creates the organisation and signs its super user in.
  await page.goto(`${base}/`);
  await expect(page).toHaveURL(`${base}/setup`);
  await page.getByLabel('Organisation').fill('Nordic Freight');
  await page.getByLabel('Your full name').fill('Sam Super');
  await page.getByLabel('User name').fill('sam');
  await page
    .getByLabel(/^Password/)
    .and(page.locator('input'))
    .fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create and sign in' }).click();
  await expect(page).toHaveURL(`${base}/dashboard`);

  // 2. A fleet of its own, from the administration list.
  await page.goto(`${base}/admin`);
  await page.getByRole('button', { name: 'Create fleet' }).click();
  const fleetDialog = page.getByRole('dialog', { name: 'New fleet' });
  await fleetDialog.getByRole('textbox', { name: 'Fleet name' }).fill('Nordic trucks');
  await fleetDialog.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/fleet\/\d+$/);
  const fleetUrl = new URL(page.url()).pathname;

  // 3. A unit with device id trk-1 (starting at 245 km) and a driver, on the service objects tab.
  await page.goto(`${base}${fleetUrl}?tab=objects`);
  await page.getByTestId('objects-new').click();
  await page.getByTestId('unit-name').fill('Truck one');
  await page.getByTestId('unit-device-id').fill('trk-1');
  await page.getByTestId('unit-start-mileage').fill('245');
  await page.getByTestId('unit-dialog-save').click();
  // A short confirmation names what was created.
  await expect(page.getByTestId('toast').filter({ hasText: 'Unit “Truck one” created.' })).toBeVisible();
  const inFleet = page.getByTestId('objects-fleet');
  await expect(inFleet.getByRole('listitem').filter({ hasText: 'Truck one' })).toBeVisible();
  await page.getByTestId('objects-kind').getByText('Drivers').click();
  await page.getByTestId('objects-new').click();
  await page.getByTestId('person-name').fill('Dana Driver');
  await page.getByTestId('person-dialog-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Driver “Dana Driver” created.' })).toBeVisible();
  await expect(inFleet.getByRole('listitem').filter({ hasText: 'Dana Driver' })).toBeVisible();

  // The truck had 245 km before it joined: the admin counts them into its actual mileage.
  await page.goto(`${base}${fleetUrl}`);
  await page.getByTestId('fleet-pull-start').click();
  await page
    .getByRole('dialog', { name: 'Pull earlier counter values' })
    .getByRole('button', { name: 'OK' })
    .click();
  await expect(page.getByTestId('fleet-pull-done')).toHaveText('Units updated: 1');

  // 4. A colleague in the organisation's own account.
  await page.goto(`${base}/activation`);
  await page.getByTestId('activation-own-account').click();
  await expect(page.getByRole('heading', { name: 'Users of Nordic Freight' })).toBeVisible();
  await page.getByRole('button', { name: 'New user' }).click();
  const userDialog = page.getByRole('dialog', { name: 'New user' });
  await userDialog.getByRole('textbox', { name: 'Login' }).fill('vera');
  await userDialog.getByRole('textbox', { name: 'Full name' }).fill('Vera Viewer');
  await userDialog
    .getByLabel(/^Password/)
    .and(page.locator('input'))
    .fill(COLLEAGUE_PASSWORD);
  await userDialog.getByLabel('Repeat password').and(page.locator('input')).fill(COLLEAGUE_PASSWORD);
  await userDialog.getByRole('button', { name: 'Save' }).click();
  await expect(userDialog).toHaveCount(0);
  await expect(page.getByRole('listitem').filter({ hasText: 'vera' })).toBeVisible();
  await screenshot(page, 'first-day-activation-1280');

  // 5. Her rights in the fleet: view intervals and services, nothing more.
  await page.goto(`${base}${fleetUrl}?tab=users`);
  await page.getByTestId('fleet-user-add').click();
  await page.getByRole('option', { name: 'Vera Viewer (vera)' }).click();
  const row = page.getByTestId('fleet-user-vera');
  await row.getByTestId('acl-vera-intervals-view').check();
  await row.getByTestId('acl-vera-services-view').check();
  await page.getByTestId('fleet-users-save').click();
  await expect(page.getByTestId('fleet-users-saved')).toBeVisible();

  // 6. Vera signs in elsewhere and sees the unit at its starting mileage.
  const context = await browser.newContext();
  const vera = await context.newPage();
  try {
    await signIn(vera, 'vera', COLLEAGUE_PASSWORD);
    await expect(vera.getByTestId('user-menu')).toBeVisible();
    await vera.goto(`${base}/items`);
    const unitRow = vera.getByRole('row').filter({ hasText: 'Truck one' });
    await expect(unitRow).toContainText('245');

    // 7. The tracker reports (OsmAnd protocol, odometer in metres): the mileage moves on her screen.
    const reading = new URLSearchParams({
      deviceid: 'trk-1',
      timestamp: String(Math.floor(Date.now() / 1000) - 5),
      lat: '59.33',
      lon: '18.06',
      odometer: '250400',
    });
    const res = await fetch(`${base}/api/ingest/osmand`, { method: 'POST', body: reading });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    await expect(unitRow).toContainText('250');
    await screenshot(vera, 'first-day-colleague-items-1280');

    // 8. Only what the rights allow: services and intervals (and fuel fillings, whose view is the
    // services' bit, spec §6) to read; no administration, no creating services.
    const nav = vera.getByRole('navigation').first();
    await expect(nav.getByRole('link', { name: 'Services', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Intervals', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Activation' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Administration' })).toHaveCount(0);
    await vera.goto(`${base}${fleetUrl}`);
    await expect(vera).not.toHaveURL(new RegExp(`${fleetUrl}$`));
    await vera.goto(`${base}/service/new`);
    await expect(vera).not.toHaveURL(/service\/new/);
  } finally {
    await context.close();
  }
});
