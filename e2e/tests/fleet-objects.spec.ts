import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, login, test } from './fixtures.ts';

/**
 * The fleet's service objects tab (spec §2 /fleet/{fleetId}; PRODUCT.md "Administration",
 * "Service objects and counters"). Only objects this journey creates are moved or deleted, and they are
 * removed at the end, so the demo fleet stays as the other journeys expect it.
 */

const SHOTS = '/tmp/shots-h1';

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function adminFleet(request: APIRequestContext) {
  const { headers } = await apiSession(request, 'admin');
  const fleets: { id: number; acl: number }[] = (await (await request.get('/api/fleets', { headers })).json())
    .fleets;
  const fleet = fleets.find((f) => (f.acl & 1) === 1);
  if (!fleet) throw new Error('demo data missing: admin is no fleet admin');
  return { headers, fid: fleet.id };
}

test('a fleet admin creates, moves, keeps and deletes service objects', async ({ page, request }) => {
  // One long journey (create, refuse, move, reload, move back, driver, edit, delete, phone width).
  test.setTimeout(90_000 * cpuThrottle());
  const { headers, fid } = await adminFleet(request);
  const stamp = Date.now().toString(36);
  const unitName = `E2E unit ${stamp}`;
  const deviceId = `e2e-${stamp}`;
  const driverName = `E2E driver ${stamp}`;
  const inFleet = page.getByTestId('objects-fleet');
  const available = page.getByTestId('objects-available');
  const rowIn = (list: typeof inFleet, name: string) => list.getByRole('listitem').filter({ hasText: name });

  try {
    await login(page, 'admin');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await page.goto(`/fleet/${fid}?tab=objects`);
    await expect(inFleet.getByRole('listitem').first()).toBeVisible();
    await shot(page, 'objects-1280');

    // A new unit with a starting mileage lands in the fleet at once.
    await page.getByTestId('objects-new').click();
    await page.getByTestId('unit-name').fill(unitName);
    await page.getByTestId('unit-device-id').fill(deviceId);
    await page.getByTestId('unit-start-mileage').fill('1200');
    await shot(page, 'objects-unit-dialog-1280');
    await page.getByTestId('unit-dialog-save').click();
    await expect(page.getByTestId('unit-dialog')).toHaveCount(0);
    await expect(rowIn(inFleet, unitName)).toBeVisible();
    const units: { id: number; nm: string; uid: string; cnm: number; fid: number | null }[] = (
      await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()
    ).units;
    const unit = units.find((u) => u.uid === deviceId);
    expect(unit).toMatchObject({ nm: unitName, cnm: 1200, fid });

    // The same device id again: the server's 409 shows on the field.
    await page.getByTestId('objects-new').click();
    await page.getByTestId('unit-name').fill(`${unitName} copy`);
    await page.getByTestId('unit-device-id').fill(deviceId);
    await page.getByTestId('unit-dialog-save').click();
    await expect(
      page.getByTestId('unit-dialog').getByText('This device ID is already in use.'),
    ).toBeVisible();
    await expect(page.getByTestId('unit-device-id')).toHaveAttribute('aria-invalid', 'true');
    await page.getByTestId('unit-dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('unit-dialog')).toHaveCount(0);

    // Filter, select, move to Available, save; a reload shows it stayed.
    await page.getByTestId('objects-fleet-filter').fill(stamp);
    await expect(inFleet.getByRole('listitem')).toHaveCount(1);
    await page.getByTestId('objects-fleet-all').check();
    await page.getByTestId('objects-fleet-move').click();
    await expect(rowIn(available, unitName)).toBeVisible();
    await expect(page.getByTestId('objects-fleet-empty')).toBeVisible();
    await expect(page.getByTestId('objects-unsaved')).toBeVisible();
    await shot(page, 'objects-unsaved-1280');
    // Leaving with unsaved moves asks first (spec §2); Stay keeps them.
    // The admin's fleet is admin-only: Administration sits in the top menu (spec §2).
    await page.getByRole('link', { name: 'Administration' }).click();
    const warning = page.getByRole('dialog', { name: 'Warning!' });
    await expect(warning).toBeVisible();
    await warning.getByRole('button', { name: 'Stay' }).click();
    await expect(warning).toHaveCount(0);
    await expect(rowIn(available, unitName)).toBeVisible();
    // Switching to another tab of the fleet would drop the moves too: it asks the same way.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(warning).toBeVisible();
    await warning.getByRole('button', { name: 'Stay' }).click();
    await expect(warning).toHaveCount(0);
    await expect(rowIn(available, unitName)).toBeVisible();
    await page.getByTestId('objects-save').click();
    await expect(page.getByTestId('objects-saved')).toBeVisible();
    await page.reload();
    await expect(rowIn(available, unitName)).toBeVisible();
    await expect(rowIn(inFleet, unitName)).toHaveCount(0);
    const after = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units as {
      id: number;
    }[];
    expect(after.some((u) => u.id === unit?.id)).toBe(false);

    // Back into the fleet.
    await rowIn(available, unitName).getByRole('checkbox').check();
    await page.getByTestId('objects-available-move').click();
    await expect(rowIn(inFleet, unitName)).toBeVisible();
    await page.getByTestId('objects-save').click();
    await expect(page.getByTestId('objects-saved')).toBeVisible();
    await expect(page.getByTestId('objects-available-empty')).toBeVisible();

    // A new driver.
    await page.getByTestId('objects-kind').getByText('Drivers').click();
    await page.getByTestId('objects-new').click();
    await expect(page.getByTestId('person-dialog')).toBeVisible();
    await page.getByTestId('person-name').fill(driverName);
    await page.getByTestId('person-code').fill('D-42');
    await page.getByTestId('person-dialog-save').click();
    await expect(rowIn(inFleet, driverName)).toBeVisible();
    await expect(rowIn(inFleet, driverName)).toContainText('D-42');
    await shot(page, 'objects-drivers-1280');

    // Edit: rename the driver.
    await rowIn(inFleet, driverName)
      .getByRole('button', { name: `Actions: ${driverName}` })
      .click();
    await page.getByTestId('object-edit').click();
    await expect(page.getByTestId('person-name')).toHaveValue(driverName);
    await page.getByTestId('person-name').fill(`${driverName} renamed`);
    await page.getByTestId('person-dialog-save').click();
    await expect(rowIn(inFleet, `${driverName} renamed`)).toBeVisible();

    // Edit the unit: its tracker was replaced, so it gets a new device id.
    await page.getByTestId('objects-kind').getByText('Units').click();
    await rowIn(inFleet, unitName)
      .getByRole('button', { name: `Actions: ${unitName}` })
      .click();
    await page.getByTestId('object-edit').click();
    await expect(page.getByTestId('unit-device-id')).toHaveValue(deviceId);
    await page.getByTestId('unit-device-id').fill(`${deviceId}-new`);
    await page.getByTestId('unit-dialog-save').click();
    await expect(page.getByTestId('unit-dialog')).toHaveCount(0);
    await expect
      .poll(async () => {
        const list = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units as {
          id: number;
          uid: string;
        }[];
        return list.find((u) => u.id === unit?.id)?.uid;
      })
      .toBe(`${deviceId}-new`);

    // Delete the unit, archived services kept (the box left unticked).
    await rowIn(inFleet, unitName)
      .getByRole('button', { name: `Actions: ${unitName}` })
      .click();
    await page.getByTestId('object-delete').click();
    const confirm = page.getByTestId('object-delete-dialog');
    await expect(confirm).toContainText(unitName);
    await expect(page.getByTestId('object-delete-archive')).not.toBeChecked();
    await shot(page, 'objects-delete-1280');
    await page.getByTestId('object-delete-confirm').click();
    await expect(page.getByTestId('objects-notice')).toContainText('Services removed: 0');
    await expect(rowIn(inFleet, unitName)).toHaveCount(0);
    await expect(rowIn(available, unitName)).toHaveCount(0);

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(inFleet).toBeVisible();
    await expectNoPageScroll(page);
    await shot(page, 'objects-375');
    await page.getByTestId('objects-new').click();
    await expect(page.getByTestId('unit-dialog')).toBeVisible();
    await expectNoPageScroll(page);
    await shot(page, 'objects-unit-dialog-375');
  } finally {
    // Whatever this journey made and left goes, so the demo fleet is as the seed made it.
    const units = (await (await request.get(`/api/fleets/${fid}/user/units`, { headers })).json()).units as {
      id: number;
      uid: string;
      fid: number | null;
    }[];
    for (const u of units.filter((x) => x.uid === deviceId)) {
      if (u.fid !== fid) {
        // Deleting goes through the fleet: bind it back first, next to the fleet's units.
        const current = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units as {
          id: number;
        }[];
        const data = { units: [...current.map((x) => x.id), u.id] };
        expect((await request.put(`/api/fleets/${fid}/entities`, { headers, data })).status()).toBe(200);
      }
      await request.delete(`/api/fleets/${fid}/units/${u.id}`, { headers });
    }
    const drivers = (await (await request.get(`/api/fleets/${fid}/drivers`, { headers })).json()).drivers as {
      id: number;
      n: string;
    }[];
    for (const d of drivers.filter((x) => x.n.startsWith(driverName)))
      expect((await request.delete(`/api/drivers/${d.id}`, { headers })).status()).toBe(200);
  }
});
