import { apiSession, cpuThrottle, expect, login, screenshot, test } from './fixtures.ts';

/**
 * Meter integrity (docs/product.md "Meter integrity"): on an untracked unit's meter tab the manager
 * records readings by hand, voids the newest with a reason (struck through, the reason shown) and
 * restores it; the unit's mileage and the interval's remaining value follow each step.
 */
test('record a reading, void it and restore it: the counter and the interval follow', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const uid = `integrity-${Date.now().toString(36)}`;
  const created = await request.post(`/api/fleets/${fid}/units`, {
    headers,
    data: { nm: `Untracked ${uid}`, uid, ut: null, cnm: 1000 },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const unitId = (await created.json()).id as number;
  // Oil every 15,000 km, last done at 500 km: remaining = 15,500 − the unit's mileage.
  const interval = await request.post(`/api/fleets/${fid}/intervals`, {
    headers,
    data: { n: `Oil ${uid}`, cnme: 1, cnmd: 15_000, cnmo: 500, u: [{ id: unitId, t: 'u', lcnm: 500 }] },
  });
  expect(interval.ok(), await interval.text()).toBe(true);
  const intervalId = (await interval.json()).id as number;
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/unit/${unitId}?tab=meter`);
    const table = page.getByTestId('meter-history');
    const tab = (name: string) => page.getByRole('tab', { name }).click();
    const remaining = async (text: RegExp) => {
      await tab('Intervals');
      await expect(page.getByTestId('object-intervals').getByTestId('remaining-mileage')).toHaveText(text);
      await tab('General');
      await tab('Meter history');
    };

    const record = async (km: string) => {
      await page.getByTestId('meter-record').click({ timeout: 30_000 * cpuThrottle() });
      const dialog = page.getByRole('dialog', { name: 'Record a reading' });
      await dialog.getByTestId('meter-record-mileage').fill(km);
      await dialog.getByTestId('meter-record-save').click();
      await expect(dialog).toBeHidden();
    };
    await record('1200');
    await expect(table.getByRole('row').filter({ hasText: /1,200 km/ })).toContainText('Manual');
    await record('1500');
    const newest = table.getByRole('row').filter({ hasText: /1,500 km/ });
    await expect(newest).toContainText('Manual');
    await expect(newest).toContainText('Accepted');
    await remaining(/^In: 14,000 km$/);
    await tab('General');
    await expect(page.getByTestId('ind-total-mileage')).toContainText('1,500 km');
    await tab('Meter history');

    // Void the newest: the counter goes back to 1,200 km, the interval to 14,300 km remaining.
    await newest.getByTestId('meter-void').click();
    const dialog = page.getByRole('dialog', { name: 'Void reading' });
    await dialog.getByTestId('meter-void-save').click();
    await expect(dialog.getByText('Enter a reason.')).toBeVisible();
    await dialog.getByTestId('meter-void-reason').fill('Misread the dashboard');
    await dialog.getByTestId('meter-void-save').click();
    await expect(dialog).toBeHidden();
    const voided = table.getByRole('row').filter({ hasText: /1,500 km/ });
    await expect(voided.getByTestId('meter-voided')).toHaveText('Voided');
    await expect(voided.getByTestId('meter-void-reason-text')).toContainText('Voided by Maria Manager');
    await expect(voided.getByTestId('meter-void-reason-text')).toContainText('Misread the dashboard');
    await expect(voided.getByText('1,500 km')).toHaveCSS('text-decoration-line', 'line-through');
    await screenshot(page, 'meter-voided-1280');
    await remaining(/^In: 14,300 km$/);
    await tab('General');
    await expect(page.getByTestId('ind-total-mileage')).toContainText('1,200 km');
    await tab('Meter history');

    // The state filter: only the voided entry.
    await page.getByTestId('meter-validity').click();
    await page.getByRole('option', { name: 'Voided' }).click();
    await expect(table.getByRole('row').filter({ hasText: /1,200 km/ })).toHaveCount(0);
    await expect(table.getByRole('row').filter({ hasText: /1,500 km/ })).toHaveCount(1);

    // Restore: the counter and the interval follow back.
    await table
      .getByRole('row')
      .filter({ hasText: /1,500 km/ })
      .getByTestId('meter-restore')
      .click();
    const confirm = page.getByRole('dialog', { name: 'Restore reading' });
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(confirm).toBeHidden();
    await remaining(/^In: 14,000 km$/);

    // The dashboard is swapped: "Meter replaced", then its first reading starts the new scale and the
    // interval keeps the 14,000 km it had left.
    await page.getByTestId('meter-validity').click();
    await page.getByRole('option', { name: 'Valid' }).click();
    await expect(page.getByTestId('meter-validity')).toHaveValue('Valid');
    await page.getByTestId('meter-replaced').click();
    const replace = page.getByRole('dialog', { name: 'Meter replaced' });
    await replace.getByRole('button', { name: 'OK' }).click();
    await expect(replace).toBeHidden();
    await expect(table.getByTestId('meter-state-replaced')).toHaveText('Meter replaced');
    await record('20');
    await expect(table.getByRole('row').filter({ hasText: /20 km \(was 1,500 km\)/ })).toContainText(
      'Baseline',
    );
    await remaining(/^In: 14,000 km$/);

    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'meter-integrity-375');
  } finally {
    await request.delete(`/api/fleets/${fid}/intervals/${intervalId}`, { headers });
    await request.delete(`/api/fleets/${fid}/units/${unitId}`, { headers });
  }
});
