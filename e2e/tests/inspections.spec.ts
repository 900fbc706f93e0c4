import type { Page } from '@playwright/test';
import {
  apiSession,
  cpuThrottle,
  expect,
  expectNoPageScroll,
  login,
  screenshot,
  screenshotsAtBothWidths,
  test,
} from './fixtures.ts';

/** Draws a stroke across a signature pad with the mouse (pointer events, as a finger does). */
async function sign(page: Page, testId: string) {
  const pad = page.getByTestId(testId);
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('no signature pad');
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(box.x + 20 + i * 25, box.y + 30 + (i % 2) * 60);
  await page.mouse.up();
}

/** Passes every item of the DVIR on the Start inspection screen except those in `fail`. */
async function answerDvir(page: Page, fail: number[] = []) {
  for (let i = 0; i < 11; i++) {
    const item = page.getByTestId(`item-${i}`);
    await item.getByText(fail.includes(i) ? 'Fail' : 'Pass', { exact: true }).click();
  }
}

/**
 * The DVIR loop (docs/product.md "Inspections"): a driver (the viewer: submits inspections) inspects a
 * truck on a phone, fails the service brakes and signs; the mechanic certifies the brakes repaired with
 * a signature at desktop width; the next inspection of that truck shows the last report with the
 * certification and asks the driver to acknowledge it before it is submitted.
 */
test('a driver submits a DVIR with a failed brake, a mechanic certifies it, the next driver acknowledges', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const uid = `dvir-${Date.now().toString(36)}`;
  const created = await request.post(`/api/fleets/${fid}/units`, {
    headers,
    data: { nm: `Truck ${uid}`, uid, ut: null },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const unitId = (await created.json()).id as number;
  const driver = await browser.newPage({ viewport: { width: 375, height: 800 } });
  const mechanic = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    // The driver, on a phone: Start inspection, the built-in DVIR, the truck, a failed brake, a signature.
    await login(driver, 'viewer');
    await driver.waitForURL((url) => !url.pathname.startsWith('/login'));
    await driver.goto('/inspections');
    await driver.getByTestId('start-inspection').click();
    await expect(driver.getByRole('heading', { name: 'Start inspection' })).toBeVisible();
    await expect(driver.getByRole('combobox', { name: 'Form' })).toHaveValue(
      'Driver vehicle inspection report (DVIR)',
    );
    await driver.getByTestId('inspection-object').click();
    await driver.getByRole('option', { name: `Truck ${uid}` }).click();
    await expect(driver.getByTestId('item-0')).toContainText(
      'Service brakes including trailer brake connections',
    );
    // Nothing answered: the first item and the signature are asked for.
    await driver.getByTestId('submit-inspection').click();
    await expect(driver.getByTestId('item-0')).toContainText('Answer this item.');
    await expect(driver.getByText('Please sign.')).toBeVisible();

    await answerDvir(driver, [0]);
    const brake = driver.getByTestId('item-0');
    await expect(brake.getByLabel('Severity')).toBeVisible();
    await brake.getByText('Major', { exact: true }).click();
    await brake.getByLabel('Remark').fill('Brake pedal goes to the floor');
    await driver.getByLabel('Mileage, km').fill('120500');
    await sign(driver, 'signature-pad');
    await expectNoPageScroll(driver);
    await screenshot(driver, 'inspection-start-375');
    await driver.getByTestId('submit-inspection').click();

    await expect(driver).toHaveURL(/\/inspections\/\d+$/);
    const failedId = Number(driver.url().split('/').pop());
    await expect(driver.getByTestId('inspection-state')).toHaveText('Defects open');
    const defect = driver.getByTestId('defect-0');
    await expect(defect).toContainText('Major');
    await expect(defect).toContainText('Issue priority: High');
    await expect(defect).toContainText('Not certified');
    // The driver does not certify.
    await expect(driver.getByRole('button', { name: 'Certify' })).toHaveCount(0);
    await expect(driver.getByRole('img', { name: 'Signature' })).toBeVisible();
    await expectNoPageScroll(driver);
    await screenshot(driver, 'inspection-failed-375');

    // The mechanic, at a desk: the list shows it; the brakes are certified repaired with a signature.
    await login(mechanic, 'mechanic');
    await mechanic.waitForURL((url) => !url.pathname.startsWith('/login'));
    await mechanic.goto(`/inspections?unit=${unitId}`);
    const row = mechanic
      .getByTestId('inspections-table')
      .getByRole('row')
      .filter({ hasText: `Truck ${uid}` });
    await expect(row).toContainText('Major');
    await expect(row).toContainText('Defects open');
    await screenshotsAtBothWidths(mechanic, 'inspections-list');
    await row.getByRole('link').first().click();
    await expect(mechanic).toHaveURL(`/inspections/${failedId}`);
    await mechanic.getByRole('button', { name: 'Certify' }).click();
    const dialog = mechanic.getByRole('dialog', { name: 'Certify' });
    await expect(dialog.getByText('Repaired', { exact: true })).toBeVisible();
    await dialog.getByLabel('Note').fill('Brake pads and caliper replaced');
    await dialog.getByTestId('certify-submit').click();
    await expect(dialog.getByText('Please sign.')).toBeVisible();
    await sign(mechanic, 'certify-signature');
    await screenshot(mechanic, 'inspection-certify-1280');
    await dialog.getByTestId('certify-submit').click();
    await expect(dialog).toBeHidden();
    await expect(mechanic.getByTestId('certification')).toContainText('Repaired: Mike Mechanic');
    await expect(mechanic.getByTestId('inspection-state')).toHaveText('Certified');
    await screenshotsAtBothWidths(mechanic, 'inspection-certified');

    // The next inspection of that truck: the last report with its certification, acknowledged first.
    await driver.goto('/inspections/new');
    await driver.getByTestId('inspection-object').click();
    await driver.getByRole('option', { name: `Truck ${uid}` }).click();
    const last = driver.getByTestId('last-report');
    await expect(last).toContainText('Last report of this unit');
    await expect(last).toContainText('Service brakes including trailer brake connections');
    await expect(last.getByTestId('certification')).toContainText('Repaired: Mike Mechanic');
    await expect(last).toContainText('Brake pads and caliper replaced');
    await answerDvir(driver);
    await sign(driver, 'signature-pad');
    await driver.getByTestId('submit-inspection').click();
    await expect(driver.getByText('Acknowledge the last report first.')).toBeVisible();
    await last.getByTestId('acknowledge').check();
    await screenshot(driver, 'inspection-acknowledge-375');
    await driver.getByTestId('submit-inspection').click();
    await expect(driver).toHaveURL(/\/inspections\/\d+$/);
    await expect(driver.getByTestId('inspection-state')).toHaveText('No defects');

    // The failed report now says who acknowledged it.
    await mechanic.reload();
    await expect(mechanic.getByTestId('acknowledgement')).toContainText('Acknowledged by Vera Viewer');
  } finally {
    const list = await request.get(`/api/fleets/${fid}/inspections?oi=${unitId}&ot=u`, { headers });
    for (const i of (await list.json()).inspections ?? [])
      await request.delete(`/api/fleets/${fid}/inspections/${i.id}`, { headers });
    await request.delete(`/api/fleets/${fid}/units/${unitId}`, { headers });
    await driver.close();
    await mechanic.close();
  }
});

/**
 * The forms editor: the built-in DVIR is copied into a form of the fleet's own (labels in the reader's
 * language), an item is added and saved; the retention setting shows; the dashboard has the section of
 * failed inspections. At 1280 and 375 px.
 */
test('a manager copies the DVIR into an own form; the dashboard shows failed inspections', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const name = `Walk-around ${Date.now().toString(36)}`;
  try {
    await login(page, 'manager');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto('/inspections/forms');
    const dvir = page.getByTestId(/^form-/).filter({ hasText: 'Driver vehicle inspection report (DVIR)' });
    await expect(dvir).toContainText('Built-in');
    await expect(dvir.getByRole('button', { name: 'Edit form' })).toHaveCount(0);
    await dvir.getByRole('button', { name: 'Copy' }).click();
    const dialog = page.getByRole('dialog', { name: 'New form' });
    await dialog.getByTestId('form-name').fill(name);
    await expect(dialog.getByPlaceholder('Label').first()).toHaveValue(
      'Service brakes including trailer brake connections',
    );
    await dialog.getByRole('button', { name: 'Add item' }).click();
    await dialog.getByPlaceholder('Label').last().fill('Load secured');
    await screenshot(page, 'inspection-form-editor-1280');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const own = page.getByTestId(/^form-/).filter({ hasText: name });
    await expect(own).toContainText('Items: 12');
    await expect(page.getByLabel('Keep inspections for (months)')).toHaveValue('12');
    await screenshotsAtBothWidths(page, 'inspection-forms');

    await page.goto('/dashboard');
    await expect(page.getByTestId('dash-section-failedInspections')).toContainText(
      'Failed inspections in the last 7 days',
    );
    await page.getByTestId('dash-section-failedInspections').scrollIntoViewIfNeeded();
    await screenshot(page, 'inspection-dashboard-1280');
  } finally {
    const forms = await request.get(`/api/fleets/${fid}/inspection-forms`, { headers });
    for (const f of (await forms.json()).forms ?? [])
      if (f.n === name) await request.delete(`/api/fleets/${fid}/inspection-forms/${f.id}`, { headers });
  }
});
