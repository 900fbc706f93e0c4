import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiSession, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/**
 * The import flow for the other kinds: intervals (CSV, a bad cell fixed inline), line items (CSV, a bad
 * row skipped) and fuel fillings (XLSX with a sheet choice, a bad cell fixed); each sees the result
 * screen and its records in their list. And item 2: the server's progress as a determinate "n of N".
 */

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function chooseFile(page: Page, list: string, name: string, buffer: Buffer, mimeType: string) {
  await page.goto(list);
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('import-open').click();
  await (await chooser).setFiles({ name, mimeType, buffer });
  await expect(page).toHaveURL(`${list}/import`);
  await expect(page.getByTestId('import-file-name')).toHaveText(name);
}

async function firstUnit(request: Parameters<typeof apiSession>[0]) {
  const { fid, headers } = await apiSession(request, 'manager');
  const units = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units as {
    nm: string;
  }[];
  return { fid, headers, unit: units[0]?.nm ?? '' };
}

test('intervals: a CSV with a too long time frequency, fixed inline, then the intervals list', async ({
  page,
  request,
}) => {
  const tag = `ImpIv${Date.now() % 100000}`;
  const { unit } = await firstUnit(request);
  const csv = [
    'Name;Unit;Time frequency;Time unit;Last service date',
    `${tag} oil;${unit};6;m;${day(-20)}`,
    `${tag} belts;${unit};12;months;`,
    `${tag} brakes;${unit};1000;m;`,
  ].join('\n');
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await chooseFile(page, '/intervals', 'intervals.csv', Buffer.from(csv), 'text/csv');
  await expect(page.getByTestId('import-mapping').getByLabel('Time frequency')).toHaveValue('2');
  await page.getByLabel('Date format').selectOption('YYYY-MM-DD');
  await page.getByRole('button', { name: 'Preview' }).click();

  await expect(page.getByTestId('import-row-count')).toHaveText('Rows: 3');
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 1');
  const bad = page.getByTestId('cell-2-time_frequency');
  await expect(bad).toHaveAttribute('title', 'Frequency by time must not exceed three digits');
  await bad.fill('24');
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 0');
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-created')).toHaveText('Created: 3');
  await expect(page.getByTestId('import-skipped')).toHaveText('Skipped rows: 0');

  await page.getByTestId('import-open-list').click();
  await expect(page).toHaveURL(/\/intervals/);
  const table = page.getByTestId('intervals');
  for (const name of ['oil', 'belts', 'brakes'])
    await expect(
      table
        .getByRole('row')
        .filter({ hasText: `${tag} ${name}` })
        .first(),
    ).toBeVisible();
});

test('line items: a CSV with an unknown type, skipped, then the library', async ({ page }) => {
  const tag = `ImpLi${Date.now() % 100000}`;
  const csv = [
    'Name,Type,Cost',
    `${tag} filter,Part,12.5`,
    `${tag} hour,labour,40`,
    `${tag} gizmo,widget,3`,
  ].join('\r\n');
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await chooseFile(page, '/lineitems', 'library.csv', Buffer.from(csv), 'text/csv');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 1');
  await expect(page.getByTestId('cell-2-type')).toHaveAttribute('title', 'Type must be labour or part');
  await expect(page.getByTestId('import-run')).toBeDisabled();
  await page.getByRole('switch', { name: 'Skip rows with problems' }).check({ force: true });
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-created')).toHaveText('Created: 2');
  await expect(page.getByTestId('import-skipped')).toHaveText('Skipped rows: 1');

  await page.getByTestId('import-open-list').click();
  await expect(page).toHaveURL(/\/lineitems/);
  const table = page.getByTestId('lineitems-parts');
  await expect(table.getByRole('row').filter({ hasText: `${tag} filter` })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: `${tag} hour` })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: `${tag} gizmo` })).toHaveCount(0);
});

test('fuel fillings: an XLSX, its second sheet chosen, a zero volume fixed, then the fillings list', async ({
  page,
  request,
}) => {
  const tag = `ImpFu${Date.now() % 100000}`;
  const { unit } = await firstUnit(request);
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Notes').addRow(['Fuel log exported for the import']);
  const sheet = book.addWorksheet('Fillings');
  sheet.addRow(['Unit', 'Date', 'Volume', 'Price', 'Station']);
  sheet.addRow([unit, `${day(-2)} 08:15`, '40.5', '1.5', `${tag} north`]);
  sheet.addRow([unit, `${day(-1)} 17:40`, '0', '1.6', `${tag} south`]);
  const buffer = Buffer.from(await book.xlsx.writeBuffer());

  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await chooseFile(
    page,
    '/fuelfillings',
    'fuel.xlsx',
    buffer,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  await page.getByLabel('Sheet').selectOption('Fillings');
  const mapping = page.getByTestId('import-mapping');
  await expect(mapping.getByLabel('Station')).toHaveValue('4');
  await page.getByLabel('Date format').selectOption('YYYY-MM-DD');
  await page.getByRole('button', { name: 'Preview' }).click();

  await expect(page.getByTestId('import-row-count')).toHaveText('Rows: 2');
  const bad = page.getByTestId('cell-1-volume');
  await expect(bad).toHaveAttribute('title', 'Must be greater than zero');
  await bad.fill('30');
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 0');
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-created')).toHaveText('Created: 2');

  await page.goto(`/fuelfillings?period=custom&from=${day(-7)}&to=${day(1)}`);
  await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
  const table = page.getByTestId('fuel-fillings');
  await expect(table.getByRole('row').filter({ hasText: `${tag} north` })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: `${tag} south` })).toBeVisible();
});

test('the server reports its progress: rows checked, then saved, as a determinate "n of N"', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const tag = `ImpPr${Date.now() % 100000}`;
  const { unit } = await firstUnit(request);
  const lines = ['Unit;Name;Mileage'];
  for (let i = 0; i < 1200; i++) lines.push(`${unit};${tag} ${i};${1000 + i}`);
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await chooseFile(page, '/services', 'many.csv', Buffer.from(lines.join('\n')), 'text/csv');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByTestId('import-row-count')).toHaveText('Rows: 1 200');

  // Every text the progress line shows is kept; the server's answer is held back once it came, so that
  // the last report (the end of the bar) stays on screen to be looked at.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="import-progress-text"]')?.textContent;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/fleets/*/import/services', async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  await page.getByTestId('import-run').click();
  const text = page.getByTestId('import-progress-text');
  await expect(text).toHaveText('Saving: 1 200 of 1 200', { timeout: 60_000 });
  const bar = page.getByTestId('import-progress').getByRole('progressbar');
  await expect(bar).toHaveAttribute('aria-valuenow', '100');
  await screenshot(page, 'imports-progress-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoPageScroll(page);
  await screenshot(page, 'imports-progress-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  release();

  await expect(page.getByTestId('import-created')).toHaveText('Created: 1 200', { timeout: 120_000 });
  await screenshot(page, 'imports-result-kinds-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoPageScroll(page);
  await screenshot(page, 'imports-result-375');
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
  // Checked rows came before saved ones, each counted against its total.
  const checks = seen.filter((s) => s.startsWith('Checking rows:'));
  const saves = seen.filter((s) => s.startsWith('Saving:'));
  expect(checks.length + saves.length).toBeGreaterThan(1);
  expect(checks.every((s) => s.endsWith('of 1 200'))).toBe(true);
  expect(saves.at(-1)).toBe('Saving: 1 200 of 1 200');
  if (checks.length) expect(seen.indexOf(checks.at(-1) ?? '')).toBeLessThan(seen.indexOf(saves[0] ?? ''));
});
