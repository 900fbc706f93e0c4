import { apiSession, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/**
 * A 500-row services CSV with 3 bad rows; one is fixed inline, the other two are
 * skipped; the result names what was created and skipped, and the services are in the list.
 */
test('a manager imports a 500-row services CSV, fixes a bad cell, skips the rest and finds the services', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const tag = `Imp${Date.now() % 100000}`;
  const { fid, headers } = await apiSession(request, 'manager');
  const units = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units as {
    nm: string;
  }[];
  const unit = units[0]?.nm ?? '';
  const lines = ['Unit;Name;Start date;End date;Mileage'];
  for (let i = 0; i < 500; i++) {
    if (i === 2) lines.push(`No such unit;${tag} row ${i};;;`);
    else if (i === 250) lines.push(`${unit};${tag} row ${i};;;1.5`);
    else if (i === 480) lines.push(`${unit};${tag} row ${i};2024-02-02;2024-02-01;`);
    else lines.push(`${unit};${tag} row ${i};;;${1000 + i}`);
  }

  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/services');
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('import-open').click();
  await (await chooser).setFiles({
    name: 'services.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${lines.join('\r\n')}\r\n`),
  });
  await expect(page).toHaveURL('/services/import');
  await expect(page.getByRole('heading', { name: 'Import services' })).toBeVisible();
  await expect(page.getByTestId('import-file-name')).toHaveText('services.csv');
  // Detected: semicolon, UTF-8; the columns are guessed from the header line; required ones marked.
  await expect(page.getByLabel('Delimiter')).toHaveValue('');
  await expect(page.getByLabel('Delimiter').locator('option').first()).toHaveText('Detected: Semicolon (;)');
  const mapping = page.getByTestId('import-mapping');
  await expect(mapping.getByLabel('Unit')).toHaveValue('0');
  await expect(mapping.getByLabel('Mileage', { exact: true })).toHaveValue('4');
  await page.getByLabel('Date format').selectOption('YYYY-MM-DD');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoPageScroll(page);
  await screenshot(page, 'imports-choose-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, 'imports-choose-1280');
  await page.getByRole('button', { name: 'Preview' }).click();

  // The preview: 500 rows, 3 with problems, red cells with the reason on hover.
  await expect(page.getByTestId('import-row-count')).toHaveText('Rows: 500');
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 3');
  const bad = page.getByTestId('cell-2-unit');
  await expect(bad).toHaveAttribute('aria-invalid', 'true');
  await expect(bad).toHaveAttribute(
    'title',
    'No unit of this fleet has this name (names are case-sensitive)',
  );
  await expect(page.getByTestId('import-run')).toBeDisabled();
  // Virtualised: far rows are not in the page until scrolled to.
  await expect(page.getByTestId('cell-480-end_date')).toHaveCount(0);
  await screenshot(page, 'imports-preview-1280');
  await bad.fill(unit);
  await expect(bad).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 2');
  await page.getByTestId('import-preview').evaluate((el) => {
    el.scrollTop = 480 * 36;
  });
  await expect(page.getByTestId('cell-480-end_date')).toHaveAttribute(
    'title',
    'End date must not be earlier than start date',
  );
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoPageScroll(page);
  await screenshot(page, 'imports-preview-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('switch', { name: 'Skip rows with problems' }).check({ force: true });
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-result')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('import-created')).toHaveText('Created: 498');
  await expect(page.getByTestId('import-skipped')).toHaveText('Skipped rows: 2');
  await expect(page.getByTestId('import-failed')).toHaveCount(0);
  await screenshot(page, 'imports-result-1280');

  await page.getByTestId('import-open-list').click();
  await expect(page).toHaveURL(/\/services/);
  await page.getByRole('searchbox', { name: 'Search' }).fill(`${tag} row 2`);
  await expect(
    page
      .getByTestId('services')
      .getByRole('row')
      .filter({ hasText: `${tag} row 2` })
      .first(),
  ).toBeVisible();

  // Everything was stored once: 498 services with the tag, none of the skipped rows.
  const open = (await (await request.get(`/api/fleets/${fid}/services`, { headers })).json()).services as {
    n: string;
  }[];
  const mine = open.filter((s) => s.n.startsWith(`${tag} row `));
  expect(mine).toHaveLength(498);
  expect(mine.some((s) => s.n === `${tag} row 250`)).toBe(false);
});

test('the import route without rows in navigation state leads to /; a hostile file gets a clear message', async ({
  page,
}) => {
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/services/import');
  await expect(page).toHaveURL('/dashboard');

  await page.goto('/lineitems');
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('import-open').click();
  await (await chooser).setFiles({
    name: 'junk.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256)),
  });
  await expect(page).toHaveURL('/lineitems/import');
  await expect(page.getByTestId('import-file-error')).toHaveText('This is not a CSV or XLSX file');
  await expect(page.getByRole('button', { name: 'Preview' })).toHaveCount(0);
});

test('a damaged .xlsx gets the translated reason, never its key', async ({ page }) => {
  test.setTimeout(120_000);
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  for (const [name, bytes] of [
    // Not a zip at all, and a zip whose directory is cut off: both are refused as a damaged workbook.
    ['fuel.xlsx', Buffer.from('unit,date,volume\nTruck,2024-01-01,40\n')],
    ['cut.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Array.from({ length: 200 }, (_, i) => i % 251)])],
  ] as const) {
    await page.goto('/fuelfillings');
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('import-open').click();
    await (await chooser).setFiles({
      name,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: bytes,
    });
    await expect(page).toHaveURL('/fuelfillings/import');
    const error = page.getByTestId('import-file-error');
    await expect(error).toHaveText('The XLSX file is damaged or not a workbook');
    await expect(error).not.toContainText('imports.');
  }
});
