import type { Page } from '@playwright/test';
import {
  apiSession,
  cpuThrottle,
  type DemoUser,
  expect,
  login,
  screenshotsAtBothWidths,
  test,
} from './fixtures.ts';

/**
 * Spec §2 /fleet/{fleetId}, custom-field definitions tab (PRODUCT.md "Administration";
 * spec §7 "Custom fields"): a fleet admin defines a list field for units, a unit's profile offers it,
 * a value is set, and deleting the field asks first because it has a value (safe=1, then safe=0).
 */

interface Field {
  id: number;
  n: string;
  tp: number;
  t: string;
  s: { options?: string[] };
}

async function relogin(page: Page, user: DemoUser) {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await login(page, user);
  await expect(page.getByTestId('user-menu')).toBeVisible();
}

test('a fleet admin defines a list field, a unit gets a value, deleting asks first', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const admin = await apiSession(request, 'admin');
  const { headers } = admin;
  const fleets: { id: number; acl: number }[] = (await (await request.get('/api/fleets', { headers })).json())
    .fleets;
  const fleet = fleets.find((f) => (f.acl & 1) === 1);
  if (!fleet) throw new Error('demo data missing: admin is no fleet admin');
  const fid = fleet.id;
  const units = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units as {
    id: number;
    cf: { id: number; v: string }[];
  }[];
  const unit = units[5] ?? units[0];
  if (!unit) throw new Error('demo units missing');
  const name = `Tyre brand ${Date.now().toString(36)}`;
  const fieldsNow = async () =>
    (await (await request.get(`/api/fleets/${fid}/custom-fields`, { headers })).json())
      .custom_fields as Field[];

  try {
    await login(page, 'admin');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await page.goto(`/fleet/${fid}?tab=customfields`);
    await expect(page.getByRole('tab', { name: 'Custom fields' })).toHaveAttribute('aria-selected', 'true');

    // New field: a list for units with two options; a repeated option is refused before sending.
    await page.getByTestId('cf-new').click();
    const dialog = page.getByRole('dialog', { name: 'New custom field' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await expect(dialog.getByRole('combobox', { name: 'Belongs to' })).toHaveValue('Unit');
    await dialog.getByText('List', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Option 1', exact: true }).fill('Michelin');
    await dialog.getByRole('button', { name: 'Add option' }).click();
    await dialog.getByRole('textbox', { name: 'Option 2', exact: true }).fill(' michelin ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toContainText('This option is already in the list.');
    await dialog.getByRole('textbox', { name: 'Option 2', exact: true }).fill('Nokian');
    await screenshotsAtBothWidths(page, 'fleet-customfields-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);

    const created = (await fieldsNow()).find((f) => f.n === name);
    expect(created).toMatchObject({ tp: 2, t: 'u', s: { options: ['Michelin', 'Nokian'] } });
    if (!created) throw new Error('field not created');
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('List');
    await expect(row).toContainText('Unit');
    await expect(row).toContainText('Michelin, Nokian');

    // Editing: the owner type is fixed; closing with unsaved changes asks first, and discarding keeps the field.
    await page.getByRole('button', { name: `Edit: ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit custom field' });
    await expect(edit.getByRole('combobox', { name: 'Belongs to' })).toBeDisabled();
    await expect(edit.getByRole('textbox', { name: 'Option 2', exact: true })).toHaveValue('Nokian');
    await edit.getByRole('textbox', { name: 'Name' }).fill(`${name} changed`);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    const discard = page.getByRole('dialog', { name: 'Warning!' });
    await expect(discard).toContainText('unsaved changes');
    await discard.getByRole('button', { name: 'OK' }).click();
    await expect(edit).toHaveCount(0);
    expect((await fieldsNow()).find((f) => f.id === created.id)?.n).toBe(name);

    // The owner type filter: drivers' fields do not include it; units' do.
    const filter = page.getByRole('combobox', { name: 'Belongs to' });
    await filter.click();
    await page.getByRole('option', { name: 'Driver', exact: true }).click();
    await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
    await filter.click();
    await page.getByRole('option', { name: 'Unit', exact: true }).click();
    await expect(row).toBeVisible();
    await screenshotsAtBothWidths(page, 'fleet-customfields-tab');

    // The unit's profile offers the new field; the manager (the demo admin holds only the admin right)
    // sets a value and saves it.
    await relogin(page, 'manager');
    await page.goto(`/unit/${unit.id}?tab=profile`);
    const profile = page.getByTestId('object-custom-fields');
    await profile.getByRole('combobox', { name }).click();
    await page.getByRole('option', { name: 'Nokian', exact: true }).click();
    await page.getByTestId('custom-fields-save').click();
    await expect(page.getByTestId('custom-fields-saved')).toBeVisible();
    const held = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units.find(
      (u: { id: number }) => u.id === unit.id,
    ).cf as { id: number; v: string }[];
    expect(held).toContainEqual({ id: created.id, v: 'Nokian' });

    // The notification set-up tab (the manager may view notifications): a placeholder saying what comes.
    await page.goto(`/fleet/${fid}?tab=notifications`);
    await expect(page.getByTestId('fleet-notifications')).toContainText('Notification set-up');
    await screenshotsAtBothWidths(page, 'fleet-notifications-tab');

    // Back to the tab: the safe delete is refused because of the value, so the screen asks first.
    await relogin(page, 'admin');
    await page.goto(`/fleet/${fid}?tab=customfields`);
    await page.getByRole('button', { name: `Delete: ${name}` }).click();
    const ask = page.getByRole('dialog', { name: 'Delete custom field' });
    await expect(ask).toContainText(`Records with a value in “${name}”: 1.`);
    expect((await fieldsNow()).some((f) => f.id === created.id)).toBe(true);
    await screenshotsAtBothWidths(page, 'fleet-customfields-ask');
    await ask.getByRole('button', { name: 'OK' }).click();
    await expect(ask).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
    expect((await fieldsNow()).some((f) => f.id === created.id)).toBe(false);
    const after = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units.find(
      (u: { id: number }) => u.id === unit.id,
    ).cf as { id: number; v: string }[];
    expect(after).toEqual(unit.cf);
  } finally {
    // Leave the demo data as found, also after a failure half-way.
    for (const f of (await fieldsNow()).filter((x) => x.n === name))
      await request.delete(`/api/custom-fields/${f.id}?safe=0`, { headers });
  }
});
