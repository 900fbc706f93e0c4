import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { apiSession, expect, expectNoPageScroll, login, test } from './fixtures.ts';

/**
 * Spec §2 /admin: a super user lists the fleets, filters them and creates one, which is
 * usable at once (fleet switcher, /fleet/{id}); a user with exactly one eligible fleet is sent to it.
 * The new fleet lives in root's own top account, so that no account admin of the demo gains a fleet
 * (redirects.spec counts on the admin having one); its name is unique per run.
 */
const suffix = `${Date.now() % 1_000_000}`;
const FLEET = `E2E Fleet ${suffix}`;
const SHOTS = '/tmp/shots-h3';

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('a super user lists the fleets, creates one and lands on its administration', async ({
  page,
  request,
}) => {
  await login(page, 'root');
  await expect(page).toHaveURL('/activation');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Fleets' });
  const demo = list.getByRole('listitem', { name: 'Demo Logistics fleet' });
  await expect(demo).toContainText('Demo Logistics');
  await expect(demo).toContainText('Kilometres, Litres');
  await expect(demo).toContainText('UTC+03:00 Moscow');
  await expect(list.getByRole('listitem', { name: 'Northwind fleet' })).toContainText('Northwind Haulage');
  await expect(page.getByRole('link', { name: 'Accounts and activation' })).toBeVisible();

  // The filter matches the account too, ignoring case.
  const filter = page.getByRole('searchbox', { name: 'Filter fleets by name or account' });
  await filter.fill('northwind HAUL');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(page).toHaveURL(/q=northwind/);
  await filter.fill('');
  await expect(list.getByRole('listitem', { name: 'Demo Logistics fleet' })).toBeVisible();
  await shot(page, 'admin-1280');

  // Create: the name is required before any call.
  await page.getByRole('button', { name: 'Create fleet' }).click();
  const dialog = page.getByRole('dialog', { name: 'New fleet' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toContainText('Enter a name.');
  await dialog.getByRole('textbox', { name: 'Fleet name' }).fill(FLEET);
  // The account defaults to the user's own (the list holds the accounts below it).
  const account = dialog.getByRole('combobox', { name: 'Account' });
  await expect(account).toHaveValue('');
  await expect(account).toHaveAttribute('placeholder', 'Your own account');
  const zone = dialog.getByRole('combobox', { name: 'Time zone' });
  await zone.click();
  await zone.fill('Helsinki');
  await page.getByRole('option', { name: /Helsinki/ }).click();
  await dialog.getByRole('textbox', { name: 'Currency' }).fill('SEK');
  await dialog.getByText('Miles').click();
  await dialog.getByText('US gallons').click();
  await shot(page, 'admin-create-1280');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toHaveCount(0);

  // Lands on the new fleet's administration, which knows the fleet without a reload.
  await expect(page).toHaveURL(/\/fleet\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByTestId('fleet-admin-title')).toHaveText(FLEET);
  await expect(page.getByTestId('fleet-currency')).toHaveValue('SEK');
  await expect(page.getByTestId('fleet-switcher').locator('option', { hasText: FLEET })).toHaveCount(1);

  // The server has it as created: top account, Helsinki's zone, miles, US gallons.
  const root = await apiSession(request, 'root');
  const fleets = (await (await request.get('/api/fleets', { headers: root.headers })).json()).fleets as {
    id: number;
    n: string;
    ms: number;
    fm: number;
    cur: string;
  }[];
  expect(fleets.find((f) => f.id === id)).toMatchObject({ n: FLEET, ms: 1, fm: 2, cur: 'SEK' });

  // And it is in the list.
  await page.goto('/admin');
  const created = page.getByRole('list', { name: 'Fleets' }).getByRole('listitem', { name: FLEET });
  await expect(created).toContainText('Your own account');
  await expect(created).toContainText('Miles, US gallons');
  await expect(created).toContainText('Helsinki');
  await created.getByRole('link', { name: FLEET }).click();
  await expect(page).toHaveURL(`/fleet/${id}`);

  // Phone width: nothing sticks out sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/admin');
  await expect(
    page.getByRole('list', { name: 'Fleets' }).getByRole('listitem', { name: FLEET }),
  ).toBeVisible();
  await expectNoPageScroll(page);
  await shot(page, 'admin-375');
  await page.getByRole('button', { name: 'Create fleet' }).click();
  const again = page.getByRole('dialog', { name: 'New fleet' });
  await expect(again).toBeVisible();
  await expectNoPageScroll(page);
  await shot(page, 'admin-create-375');
  // The account has a fleet of that name already: said on the name field, nothing created.
  await again.getByRole('textbox', { name: 'Fleet name' }).fill(FLEET.toUpperCase());
  await again.getByRole('button', { name: 'Create' }).click();
  await expect(again).toContainText('This account already has a fleet of that name.');
  await expect(page).toHaveURL('/admin');
});

test('a user with exactly one eligible fleet is sent from /admin to it', async ({ page, request }) => {
  const manager = await apiSession(request, 'manager');
  await login(page, 'manager');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await page.goto('/admin');
  await expect(page).toHaveURL(`/fleet/${manager.fid}`);
  await expect(page.getByTestId('fleet-admin-title')).toHaveText('Demo Logistics fleet');
});

/**
 * DESIGN §3, Teltonika port: a super user names the IO elements a unit type's Teltonika trackers report
 * mileage and engine hours in, on /admin; the form refuses what is no IO id before any call. The
 * setting is the platform's: it is cleared again at the end.
 */
test('a super user sets a unit type’s Teltonika IO elements', async ({ page, request }) => {
  const root = await apiSession(request, 'root');
  const tipper = (root.unitTypes as { id: number; n: string }[]).find((u) => u.n === 'tipper')!;
  const clear = () =>
    request.put(`/api/admin/unit_types/${tipper.id}/teltonika`, {
      headers: root.headers,
      data: { mileage: null, hours: null },
    });
  try {
    await login(page, 'root');
    await expect(page).toHaveURL('/activation');
    await page.goto('/admin');
    const section = page.getByRole('region', { name: 'Unit types: Teltonika IO elements' });
    const row = section.getByRole('listitem', { name: 'Tipper' });
    await expect(row).toContainText('Mileage: odometer (IO 16)');
    await expect(row).toContainText('Engine hours: while the ignition is on');

    await row.getByRole('button', { name: 'Edit: Tipper' }).click();
    const dialog = page.getByRole('dialog', { name: 'Teltonika IO elements: Tipper' });
    const mileage = dialog.getByRole('textbox', { name: 'Mileage IO id' });
    await mileage.fill('CAN');
    await dialog.getByRole('textbox', { name: 'Engine hours IO id' }).fill('103');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toContainText('A whole number from 1 to 65535');
    await mileage.fill('87');
    await dialog.getByText('kilometres').click();
    await shot(page, 'unit-type-io-1280');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row).toContainText('Mileage: IO 87, kilometres');
    await expect(row).toContainText('Engine hours: IO 103, seconds');

    const stored = await (await request.get('/api/admin/unit_types', { headers: root.headers })).json();
    expect(stored.unit_types.find((u: { id: number }) => u.id === tipper.id).tio).toEqual({
      mileage: { id: 87, unit: 'km' },
      hours: { id: 103, unit: 's' },
    });

    // Phone width: nothing sticks out sideways, the list nor the dialog.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(row).toBeVisible();
    await expectNoPageScroll(page);
    await shot(page, 'unit-types-375');
    await row.getByRole('button', { name: 'Edit: Tipper' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Mileage IO id' })).toHaveValue('87');
    await expectNoPageScroll(page);
    await shot(page, 'unit-type-io-375');
  } finally {
    await clear();
  }
});
